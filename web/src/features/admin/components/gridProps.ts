import { PAGE_SIZE, PAGE_SIZES, rangeText } from '../paging';

/**
 * What every admin table shares: pages of 10 (or a size chosen beside it), the range text 'from - to of total',
 * first and last page buttons, the columns button (selectable columns) and no client-side quick filter, CSV or print
 * buttons (a page of a server list is not the list).
 */
export const adminGridProps = (page: number, pageSize = PAGE_SIZE) => ({
  pageSizeOptions: PAGE_SIZES,
  localeText: {
    paginationDisplayedRows: ({ count }: { count: number }) => rangeText(page, count, pageSize),
  },
  showToolbar: true,
  slotProps: {
    toolbar: {
      showQuickFilter: false,
      csvOptions: { disableToolbarButton: true },
      printOptions: { disableToolbarButton: true },
    },
    basePagination: { material: { showFirstButton: true, showLastButton: true } },
  },
  disableRowSelectionOnClick: true,
});
