/**
 * Micro-benchmark of the embedded document store (in memory): the query and update evaluation the adapter does per
 * operation, without HTTP or files. `npx tsx bench/store-micro.ts [n]` (default 100,000 operations per line).
 */
import { createEmbeddedStore } from '../services/platform/src/store/embedded';

type Post = {
  _id: string;
  authorId: string;
  likes: number;
  tags: string[];
  createdAt: string;
  meta: { views: number };
};

const n = Number(process.argv[2] ?? 100_000);
const DOCS = 10_000;

async function time(label: string, ops: number, run: (i: number) => Promise<unknown>): Promise<void> {
  const start = process.hrtime.bigint();
  // 20 in flight, like the bench's connections.
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < ops) await run(next++);
    }),
  );
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(
    `${label.padEnd(44)} ${ops.toLocaleString('en').padStart(8)} ops ${ms.toFixed(0).padStart(6)} ms ${Math.round(
      (ops / ms) * 1000,
    )
      .toLocaleString('en')
      .padStart(8)} ops/s`,
  );
}

const store = createEmbeddedStore();
const posts = store.collection<Post>('posts');
await posts.createIndex({ authorId: 1 });
await posts.createIndex({ createdAt: -1 });
const docs: Post[] = Array.from({ length: DOCS }, (_, i) => ({
  _id: `p${i}`,
  authorId: `u${i % 500}`,
  likes: 0,
  tags: [`t${i % 7}`, `t${i % 11}`],
  createdAt: new Date(1_700_000_000_000 + i * 1000).toISOString(),
  meta: { views: 0 },
}));
await posts.insertMany(docs);

await time('findOne by _id', n, (i) => posts.findOne({ _id: `p${i % DOCS}` }));
await time('find by indexed field (20 docs), sorted', n / 10, (i) =>
  posts.find({ authorId: `u${i % 500}` }, { sort: { createdAt: -1 } }),
);
await time('find range + $in + projection, limit 20', 200, (i) =>
  posts.find(
    {
      createdAt: { $gte: new Date(1_700_000_000_000 + (i % DOCS) * 1000).toISOString() },
      tags: { $in: ['t1', 't3'] },
    },
    { sort: { createdAt: -1 }, limit: 20, projection: { _id: 1, likes: 1 } },
  ),
);
await time('updateOne $inc/$set by _id', n, (i) =>
  posts.updateOne({ _id: `p${i % DOCS}` }, { $inc: { likes: 1, 'meta.views': 1 }, $set: { last: i } }),
);
await time('findOneAndUpdate $addToSet/$pull', n, (i) =>
  posts.findOneAndUpdate(
    { _id: `p${i % DOCS}` },
    i % 2 ? { $addToSet: { tags: `x${i % 3}` } } : { $pull: { tags: `x${(i - 1) % 3}` } },
  ),
);
await time('upsert by _id', n, (i) =>
  posts.updateOne(
    { _id: `n${i % 5000}` },
    { $setOnInsert: { authorId: 'z' }, $inc: { likes: 1 } },
    { upsert: true },
  ),
);
await time('countDocuments scan ($ne, no index)', 200, () => posts.countDocuments({ likes: { $ne: 3 } }));
await store.close();
