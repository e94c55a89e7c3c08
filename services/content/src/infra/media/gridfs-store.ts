import { GridFSBucket, MongoClient, ObjectId } from 'mongodb';
import { isMediaId, type MediaStore } from './types';

export interface GridFsMediaOptions {
  url: string;
  dbName: string;
  bucketName?: string;
}

/** Media in MongoDB GridFS (bucket `media` of the content database); the id is the file's ObjectId in hex. */
export async function createGridFsMediaStore(options: GridFsMediaOptions): Promise<MediaStore> {
  const client = new MongoClient(options.url);
  await client.connect();
  const bucket = new GridFSBucket(client.db(options.dbName), { bucketName: options.bucketName ?? 'media' });

  return {
    kind: 'gridfs',
    async put(bytes, contentType) {
      const id = new ObjectId();
      await new Promise<void>((resolve, reject) => {
        const upload = bucket.openUploadStreamWithId(id, id.toHexString(), { metadata: { contentType } });
        upload.once('error', reject);
        upload.once('finish', () => resolve());
        upload.end(bytes);
      });
      return id.toHexString();
    },
    async get(id) {
      if (!isMediaId(id)) return null;
      const objectId = new ObjectId(id);
      const [file] = await bucket.find({ _id: objectId }).limit(1).toArray();
      if (!file) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of bucket.openDownloadStream(objectId)) chunks.push(chunk as Buffer);
      const contentType = (file.metadata as { contentType?: string } | undefined)?.contentType;
      return { bytes: Buffer.concat(chunks), contentType: contentType ?? 'application/octet-stream' };
    },
    close: () => client.close(),
  };
}
