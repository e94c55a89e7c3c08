export { type BootedContent, bootContent } from './boot';
export { DEFAULT_SITE_SETTINGS } from './domain/site-settings';
export { CONTENT_READ_MODEL_COLLECTIONS } from './events/read-models';
export {
  createFileMediaStore,
  createGridFsMediaStore,
  type MediaStore,
  openMediaStore,
} from './infra/media';
export {
  type ContentService,
  type ContentServiceDeps,
  createContentService,
} from './service';
