import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { EVENT_LOG_TYPES } from '@nudge/contracts/event-log-types';
import { useState } from 'react';
import { notifyError } from '../../../../shared/notify';
import { eventLogsCsv } from '../../csv';
import { type DownloadProgress, fetchText, saveFile } from '../../download';
import { eventLogsList } from '../../listDefinitions';
import { longDate } from '../../paging';
import type { EventLog } from '../../types';
import type { FilterSpec } from '../ListFilters';
import { PagedTable } from '../PagedTable';

const metadataText = (metadata: EventLog['metadata']) =>
  metadata && Object.keys(metadata).length > 0
    ? Object.entries(metadata)
        .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
        .join(', ')
    : 'No metadata';

const columns: GridColDef<EventLog>[] = [
  { field: '_id', headerName: 'Id', width: 220 },
  { field: 'userId', headerName: 'User Id', width: 220 },
  { field: 'userEmail', headerName: 'User Email', width: 200 },
  { field: 'eventType', headerName: 'Event Type', width: 180 },
  { field: 'eventValue', headerName: 'Event Value', flex: 1, minWidth: 160 },
  { field: 'metadata', headerName: 'Metadata', width: 220, valueFormatter: metadataText },
  { field: 'createdAt', headerName: 'Created On', width: 160, valueFormatter: longDate },
];

const FILTERS: FilterSpec[] = [
  {
    key: 'eventType',
    label: 'Event type',
    kind: 'select',
    options: EVENT_LOG_TYPES.map((v) => ({ value: v, label: v })),
  },
  { key: 'email', label: 'User email', kind: 'text' },
  { key: 'from', label: 'From', kind: 'date' },
  { key: 'to', label: 'To', kind: 'date' },
];

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/** admin.md §2: read-only; 'Download all' saves EventLogs.csv, with progress while a large log streams. */
export function EventLogsSection() {
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const downloadAll = async () => {
    setProgress({ received: 0, total: null });
    try {
      const text = await fetchText('POST', '/api/eventlogs/alllogs', {}, setProgress);
      saveFile('EventLogs.csv', eventLogsCsv(text));
    } catch {
      notifyError('Something went wrong');
    } finally {
      setProgress(null);
    }
  };
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Button variant="outlined" onClick={() => void downloadAll()} disabled={progress !== null}>
          Download all
        </Button>
        {progress && (
          <Stack sx={{ flex: 1, maxWidth: 320 }} spacing={0.5} role="status" aria-live="polite">
            <LinearProgress
              aria-label="Download progress"
              variant={progress.total ? 'determinate' : 'indeterminate'}
              value={progress.total ? Math.min(100, (progress.received / progress.total) * 100) : undefined}
            />
            <Typography variant="caption">
              Downloading… {kb(progress.received)}
              {progress.total ? ` of ${kb(progress.total)}` : ''}
            </Typography>
          </Stack>
        )}
      </Stack>
      {/* admin.md §2's default columns User Id, Event Type, Event Value, and the time the log is ordered by. */}
      <PagedTable
        list={eventLogsList}
        columns={columns}
        label="Event logs"
        filters={FILTERS}
        sortable={['createdAt']}
        defaultSort={{ field: 'createdAt', order: 'desc' }}
        hidden={{ _id: false, userEmail: false, metadata: false }}
      />
    </Stack>
  );
}
