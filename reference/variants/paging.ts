/**
 * Notification paging variants. The seeds give the paging members (pageNumber, pageSize, hasNext, totalElements) but
 * not their bounds (organization-identity-api.md, Limits: "Bounds of `pageNumber` and `pageSize`, and maximum request
 * size: not shown").
 * - pages-from-1: the first page is number 1; page 0 is rejected.
 * - page-size-cap: a page holds at most `cap` notifications whatever pageSize asks for; pages are numbered in pages of
 *   the size actually served, and hasNext / totalElements stay truthful.
 */
import { type Handler, type HandlerContext, Rejection } from '../handlers/types.js';
import type { ReferenceHook } from '../hooks.js';

export const pagesFromOne = (): ReferenceHook[] => [
  {
    operations: ['searchNotifications'],
    handler: (next: Handler, ctx: HandlerContext) => {
      const { pageNumber } = ctx.content;
      if (typeof pageNumber === 'number' && pageNumber < 1) throw new Rejection(400, 'pageNumber starts at 1');
      return next({
        ...ctx,
        content: { ...ctx.content, pageNumber: typeof pageNumber === 'number' ? pageNumber - 1 : pageNumber },
      });
    },
  },
];

export const pageSizeCap = (cap: number): ReferenceHook[] => [
  {
    operations: ['searchNotifications'],
    handler: (next: Handler, ctx: HandlerContext) => {
      const { pageSize } = ctx.content;
      return next({
        ...ctx,
        content: { ...ctx.content, pageSize: typeof pageSize === 'number' && pageSize > cap ? cap : pageSize },
      });
    },
  },
];
