import { startKafka } from './kafka';

for (let i = 0; i < 2; i++) {
  const t = Date.now();
  const k = await startKafka();
  const ready = Date.now() - t;
  const s = Date.now();
  await k.stop();
  console.log(`ready ${ready} ms, stop ${Date.now() - s} ms`);
}
