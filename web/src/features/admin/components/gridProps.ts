import { PAGE_SIZE, rangeText } from '../paging';

/**
 * What every admin table shares: pages of 10, the range text 'from - to of total', the columns button (selectable
 * columns) and no client-side quick filter, CSV or print buttons (a page of a server list is not the list).
 */
export const adminGridProps = (page: number) => ({
  pageSizeOptions: [PAGE_SIZE],
  localeText: { paginationDisplayedRows: ({ count }: { count: number }) => rangeText(page, count) },
  showToolbar: true,
  slotProps: {
    toolbar: {
      showQuickFilter: false,
      csvOptions: { disableToolbarButton: true },
      printOptions: { disableToolbarButton: true },
    },
  },
  disableRowSelectionOnClick: true,
});
