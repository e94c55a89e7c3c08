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
  const cpu0 = process.cpuUsage();
  // 20 in flight, like the bench's connections.
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < ops) await run(next++);
    }),
  );
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  console.log(
    `${label.padEnd(44)} ${ops.toLocaleString('en').padStart(8)} ops ${ms.toFixed(0).padStart(6)} ms ${Math.round(
      (ops / ms) * 1000,
    )
      .toLocaleString('en')
      .padStart(8)} ops/s ${((cpu.user + cpu.system) / ops).toFixed(1).padStart(8)} µs CPU/op`,
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
// The feed page's other collections, shaped as content's (services/content/src/events/collections.ts).
const versions = store.collection<{ _id: string; version: string }>('feedOrderVersion');
await versions.insertOne({ _id: 'order', version: 'v1' });
const counters = store.collection<{ _id: string; totallikes: number; totalcomments: number }>('counters');
await counters.insertMany(docs.map((d) => ({ _id: d._id, totallikes: 3, totalcomments: 1 })));
const likes = store.collection<{ _id: string; userId: string; templateId: string; liked: boolean }>('likes');
await likes.createIndex({ templateId: 1, liked: 1 });
await likes.createIndex({ userId: 1 });
await likes.insertMany(
  Array.from({ length: 20_000 }, (_, i) => ({
    _id: `l${i}`,
    userId: `u${i % 500}`,
    templateId: `p${(i * 7) % DOCS}`,
    liked: i % 3 !== 0,
  })),
);

await time('findOne by _id', n, (i) => posts.findOne({ _id: `p${i % DOCS}` }));
await time('find by $in of 5 _ids', n, (i) =>
  posts.find({ _id: { $in: [0, 1, 2, 3, 4].map((k) => `p${(i * 5 + k) % DOCS}`) } }),
);
await time('feed page reads (4: version, posts, counters, likes)', n / 4, async (i) => {
  const ids = [0, 1, 2, 3, 4].map((k) => `p${(i * 5 + k) % DOCS}`);
  await versions.findOne({ _id: 'order' });
  await posts.find({ _id: { $in: ids } });
  await counters.find({ _id: { $in: ids } });
  await likes.find({ userId: `u${i % 500}`, templateId: { $in: ids }, liked: true });
});
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
