export {
  bindKeyring,
  createKeyring,
  type Keyring,
  keyringOf,
  openPersonalFields,
  ownerOfSealed,
  READER_KEYS,
  sealPersonalFields,
} from './keyring';
