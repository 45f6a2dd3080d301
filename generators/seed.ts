/**
 * Deterministic data: each test's Faker is seeded from the run seed and the test's stable ID, so adding a test never
 * changes the data of the others, and setting CONFORMANCE_SEED replays a run's data. Source: README, "Settings"
 * (CONFORMANCE_SEED).
 */
import type { Faker } from '@faker-js/faker';
import { faker as usEnglish } from '@faker-js/faker/locale/en_US';

// The package root loads every locale (about 38 MB and half a second in each test worker); the US English entry point
// loads one, and its instance carries the Faker class and the merged definitions of en_US, en and base, the locale
// chain this suite has always used (same data for the same seed).
const FakerClass = usEnglish.constructor as new (options: { locale: typeof usEnglish.rawDefinitions }) => Faker;

/** 32-bit FNV-1a hash of a string. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The seed of one test: a hash of the run seed and the test's stable ID. */
export const testSeed = (runSeed: number, testId: string) => fnv1a(`${runSeed}:${testId}`);

/** A Faker (US English) seeded with `seed`. */
export function seededFaker(seed: number): Faker {
  const faker = new FakerClass({ locale: usEnglish.rawDefinitions });
  faker.seed(seed);
  return faker;
}
