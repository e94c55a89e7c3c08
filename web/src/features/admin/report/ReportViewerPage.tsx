import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import { useCallback, useEffect, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { errorMessage } from '../../../shared/http';
import { notifyError } from '../../../shared/notify';
import { fetchReportCsv, fetchReportData } from '../api';
import { ArrowDownIcon, ArrowUpIcon, DownloadIcon, RefreshIcon } from '../components/icons';
import { saveFile } from '../download';
import {
  answerCell,
  clampPage,
  DEFAULT_PAGE_SIZE,
  ERROR_TEXT,
  errorView,
  METRIC_ROWS,
  newestFirst,
  periodLabel,
  type ReportData,
  type ReportErrorView,
  type ReportView,
  reportCsv,
  switchView,
  yearHeaders,
} from './rules';

/** The row labels stay in view while the periods scroll sideways (narrow screens). */
const ROW_HEADER = {
  position: 'sticky',
  left: 0,
  zIndex: 1,
  bgcolor: 'background.paper',
  minWidth: { xs: 150, md: 220 },
} as const;

/** A chart axis label: 'Nov 2026', 'Q4 2026'. */
const shortPeriod = (period: string) => {
  const { year, label } = periodLabel(period);
  return `${label.slice(0, label.startsWith('Q') ? 2 : 3)} ${year}`;
};

type Load =
  | { kind: 'loading' }
  | { kind: 'data'; data: ReportData }
  | { kind: 'error'; view: ReportErrorView };

/** admin.md §2: /report/{id}, full width (not the narrow layout). The server decides who may see a report. */
export function ReportViewerPage() {
  const { id = '' } = useParams();
  const [view, setView] = useState<ReportView>('monthly');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [load, setLoad] = useState<Load>({ kind: 'loading' });

  const fetchData = useCallback(async () => {
    setLoad({ kind: 'loading' });
    try {
      const data = await fetchReportData(id, view, page, pageSize);
      setLoad({ kind: 'data', data });
    } catch (error) {
      // admin.md §8: any other error clears the data.
      setLoad({ kind: 'error', view: errorView(errorMessage(error, '')) });
    }
  }, [id, view, page, pageSize]);
  useEffect(() => {
    void fetchData();
  }, [fetchData]);

  const changeView = (next: ReportView | null) => {
    if (!next || next === view) return;
    const switched = switchView(view, next, pageSize);
    setView(next);
    setPage(switched.page);
    setPageSize(switched.pageSize);
  };

  const download = async () => {
    try {
      const res = await fetchReportCsv(id, view);
      saveFile('report_data.csv', reportCsv(res.data));
    } catch (error) {
      notifyError(errorMessage(error, 'Something Bad Happen!'));
    }
  };

  if (load.kind === 'error')
    return (
      <Box component="main" id="main" sx={{ display: 'grid', placeItems: 'center', minHeight: '80vh', p: 2 }}>
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
          <Typography variant="h5" component="h1">
            {ERROR_TEXT[load.view]}
          </Typography>
          <Button variant="contained" component={RouterLink} to="/">
            Back to Home Page
          </Button>
        </Stack>
      </Box>
    );

  const data = load.kind === 'data' ? load.data : null;
  const rows = newestFirst(data?.data ?? []);
  const totalPages = data?.pagination?.totalPages ?? 1;
  const currentPage = data?.pagination?.currentPage ?? page;
  const chartRows = [...rows].reverse();

  return (
    <Box component="main" id="main" sx={{ p: { xs: 1.5, md: 3 }, maxWidth: 1400, mx: 'auto' }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        {data?.logo && (
          <Box
            component="img"
            src={data.logo}
            alt="Report logo"
            sx={{ height: 48, maxWidth: 200, objectFit: 'contain' }}
          />
        )}
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          Report
        </Typography>
        <IconButton aria-label="Refresh" onClick={() => void fetchData()}>
          <RefreshIcon />
        </IconButton>
        <IconButton aria-label="Download CSV" onClick={() => void download()}>
          <DownloadIcon />
        </IconButton>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={view}
          onChange={(_e, v) => changeView(v)}
          aria-label="Report view"
        >
          <ToggleButton value="monthly">Monthly</ToggleButton>
          <ToggleButton value="quarterly">Quarterly</ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      {load.kind === 'loading' ? (
        <CircularProgress aria-label="Loading report" />
      ) : (
        <>
          {/* Focusable, so a keyboard user can scroll the periods on a narrow screen (axe scrollable-region-focusable). */}
          <TableContainer
            component={Paper}
            sx={{ overflowX: 'auto' }}
            tabIndex={0}
            role="region"
            aria-label="Report periods"
          >
            <Table size="small" aria-label="Report">
              <TableHead>
                <TableRow>
                  <TableCell component="th" scope="row" sx={ROW_HEADER}>
                    Year
                  </TableCell>
                  {yearHeaders(rows).map((h) => (
                    <TableCell key={h.year} colSpan={h.span} align="center">
                      {h.year}
                    </TableCell>
                  ))}
                </TableRow>
                <TableRow>
                  <TableCell component="th" scope="row" sx={ROW_HEADER}>
                    {view === 'monthly' ? 'Month' : 'Quarter'}
                  </TableCell>
                  {rows.map((r) => (
                    <TableCell key={r.period} align="center">
                      {periodLabel(r.period).label}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {METRIC_ROWS.map((metric) => (
                  <TableRow key={metric.label}>
                    <TableCell component="th" scope="row" sx={ROW_HEADER}>
                      {metric.label}
                    </TableCell>
                    {rows.map((r) => (
                      <TableCell key={r.period} align="center">
                        {metric.value(r)}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
                {(data?.questions ?? []).map((q) => (
                  <TableRow key={q._id}>
                    <TableCell component="th" scope="row" sx={ROW_HEADER}>
                      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                        {q.scale === 'normal' ? (
                          <ArrowUpIcon
                            fontSize="small"
                            sx={{ color: 'success.main' }}
                            titleAccess="Higher is better"
                          />
                        ) : (
                          <ArrowDownIcon
                            fontSize="small"
                            sx={{ color: 'error.main' }}
                            titleAccess="Lower is better"
                          />
                        )}
                        <span>{q.body}</span>
                      </Stack>
                    </TableCell>
                    {rows.map((r) => (
                      <TableCell key={r.period} align="center">
                        {answerCell(r, q._id)}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'center', my: 2 }}>
            <Button
              disabled={currentPage <= 1}
              onClick={() => setPage(clampPage(currentPage - 1, totalPages))}
            >
              Latest
            </Button>
            <Typography>
              Page {currentPage} of {totalPages}
            </Typography>
            <Button
              disabled={currentPage >= totalPages}
              onClick={() => setPage(clampPage(currentPage + 1, totalPages))}
            >
              Oldest
            </Button>
          </Stack>
          {chartRows.length > 0 && (
            <Paper sx={{ p: 2 }} aria-label="Trend of Active People % and Response Rate">
              <Typography variant="subtitle1" component="h2">
                Trend
              </Typography>
              <LineChart
                height={240}
                skipAnimation
                yAxis={[{ min: 0, max: 100, label: '%' }]}
                xAxis={[
                  {
                    scaleType: 'point',
                    data: chartRows.map((r) => shortPeriod(r.period)),
                  },
                ]}
                series={[
                  { label: 'Active People %', data: chartRows.map((r) => r.activePeoplePercentage) },
                  { label: 'Response Rate', data: chartRows.map((r) => r.responseRate) },
                ]}
              />
            </Paper>
          )}
        </>
      )}
    </Box>
  );
}
