/**
 * The window categories of the paging check (scenarios/shared/rules/paging-windows.ts): the page
 * sizes it walks a window of n notifications at put the window in each category, and a walk whose
 * totalElements falls below what it walked is one no lagging feed explains
 * (scenarios/shared/notifications.ts totalBelowWalked). Pure functions only: no server.
 * Source: organization-identity-api.md, Events ("`hasNext` tells whether more pages exist and
 * `totalElements` gives the total count").
 */
import { describe, expect, it } from 'vitest';
import { sizesFor, windowCategory } from '../scenarios/shared/rules/paging-windows.js';
import { totalBelowWalked } from '../scenarios/shared/notifications.js';

const CATEGORIES = ['window:below-page', 'window:one-page', 'window:pages', 'window:pages+1'];

describe('window categories', () => {
  it.each([
    [2, 3, 'window:below-page'],
    [3, 3, 'window:one-page'],
    [6, 3, 'window:pages'],
    [7, 3, 'window:pages+1'],
    [4, 3, 'window:pages+1'],
    [8, 3, undefined],
    [0, 3, undefined],
  ])('%i notifications in pages of %i: %s', (n, size, category) => {
    expect(windowCategory(n, size)).toBe(category);
  });

  it.each([4, 6, 9, 12, 20, 30])('the sizes for a window of %i reach every category', (n) => {
    expect(new Set(sizesFor(n).map((s) => windowCategory(n, s)))).toEqual(new Set(CATEGORIES));
  });

  it('a window of a prime count above 6 has no exact multiple within the page limit, the others are reached', () => {
    expect(new Set(sizesFor(13).map((s) => windowCategory(13, s)))).toEqual(
      new Set(CATEGORIES.filter((c) => c !== 'window:pages')),
    );
  });
});

/** A walk of pages with `lengths` notifications and the totals given. */
const walk = (lengths: number[], totals: Array<number | undefined>) => ({
  pages: lengths.map((n, i) => ({
    content: { notifications: Array.from({ length: n }, (_, j) => ({ j })), totalElements: totals[i] },
  })) as never,
});

describe('totals no lag explains', () => {
  it('a page total equal to the page length, below the notifications walked, is one', () => {
    expect(totalBelowWalked(walk([3, 3, 1], [3, 3, 1]))).toBe(true);
  });
  it('a total that falls below what was walked is one', () => {
    expect(totalBelowWalked(walk([3, 3], [7, 5]))).toBe(true);
  });
  it('totals rising while a feed fills are not', () => {
    expect(totalBelowWalked(walk([3, 3, 2], [7, 8, 8]))).toBe(false);
  });
  it('pages without totals are not', () => {
    expect(totalBelowWalked(walk([3, 1], [undefined, undefined]))).toBe(false);
  });
});
