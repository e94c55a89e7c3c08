import { describe, expect, it } from 'vitest';
import { mongoClientOptions } from './mongo';

// No MongoDB runs here: what the services ask of it is checked on the options the driver gets.
describe('what the services ask of MongoDB', () => {
  it('waits for a majority to journal each write, and bounds every wait', () => {
    expect(mongoClientOptions('mongodb://mongo-0,mongo-1,mongo-2/?replicaSet=rs0')).toEqual({
      ignoreUndefined: true,
      writeConcern: { w: 'majority', journal: true, wtimeoutMS: 10_000 },
      retryWrites: true,
      serverSelectionTimeoutMS: 10_000,
      connectTimeoutMS: 10_000,
      socketTimeoutMS: 60_000,
    });
  });

  it('leaves what the connection string sets to it', () => {
    const options = mongoClientOptions('mongodb://mongo/?w=1&socketTimeoutMS=5000&retryWrites=false');
    expect(options).not.toHaveProperty('writeConcern');
    expect(options).not.toHaveProperty('socketTimeoutMS');
    expect(options).not.toHaveProperty('retryWrites');
    expect(options).toMatchObject({ serverSelectionTimeoutMS: 10_000 });
  });
});
