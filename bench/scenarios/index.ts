import { feedPage, openPost } from './content';
import { comment, like } from './engagement';
import { isauth } from './isauth';
import { reportData, reportDataQuarterly, webEventBatches, webEventSingle } from './reporting';
import type { Scenario } from './types';

export type { BenchContext, BenchRequest, Scenario } from './types';

/** Every scenario `npm run bench` measures through the standalone gateway, in this order. */
export const scenarios: Scenario[] = [
  isauth,
  feedPage,
  openPost,
  like,
  comment,
  webEventSingle,
  webEventBatches,
  reportData,
  reportDataQuarterly,
];
