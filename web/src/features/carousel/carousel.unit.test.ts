import { describe, expect, it } from 'vitest';
import {
  CARD_WIDTH,
  cardStep,
  cardWidth,
  clampIndex,
  GAP,
  nextIndex,
  SLIDE_MS,
  shouldLoadMore,
  swipeResult,
  translateX,
} from './carousel';

describe('constants', () => {
  it('match reader.md §9', () => {
    expect(GAP).toBe(24);
    expect(CARD_WIDTH).toBe(420);
    expect(SLIDE_MS).toBe(300);
  });
});

describe('cardWidth', () => {
  it('is the window width minus 34 at 500 or narrower, 420 above', () => {
    expect(cardWidth(500)).toBe(466);
    expect(cardWidth(501)).toBe(420);
    expect(cardWidth(320)).toBe(286);
    expect(cardWidth(1440)).toBe(420);
  });

  it('never goes below 0', () => {
    expect(cardWidth(20)).toBe(0);
  });
});

describe('swipeResult', () => {
  const width = 420; // a quarter is 105

  it('does not move at exactly a quarter of the card width or less', () => {
    expect(swipeResult(-105, width)).toBe(0);
    expect(swipeResult(105, width)).toBe(0);
    expect(swipeResult(0, width)).toBe(0);
    expect(swipeResult(-50, width)).toBe(0);
  });

  it('moves one card just beyond a quarter: left drag to the next card, right drag to the previous', () => {
    expect(swipeResult(-105.5, width)).toBe(1);
    expect(swipeResult(105.5, width)).toBe(-1);
    expect(swipeResult(-400, width)).toBe(1);
    expect(swipeResult(1000, width)).toBe(-1);
  });

  it('uses the narrow card width', () => {
    const narrow = cardWidth(320); // 286, a quarter is 71.5
    expect(swipeResult(-71.5, narrow)).toBe(0);
    expect(swipeResult(-72, narrow)).toBe(1);
  });
});

describe('clampIndex and nextIndex', () => {
  it('keep the index within the loaded cards', () => {
    expect(clampIndex(-1, 5)).toBe(0);
    expect(clampIndex(2, 5)).toBe(2);
    expect(clampIndex(5, 5)).toBe(4);
    expect(clampIndex(3, 0)).toBe(0);
  });

  it('move by one card and stop at both ends', () => {
    expect(nextIndex(0, 1, 5)).toBe(1);
    expect(nextIndex(0, -1, 5)).toBe(0);
    expect(nextIndex(4, 1, 5)).toBe(4);
    expect(nextIndex(2, 0, 5)).toBe(2);
  });
});

describe('shouldLoadMore', () => {
  it('loads when the current card is one of the last 3 loaded', () => {
    expect(shouldLoadMore(0, 10, true)).toBe(false);
    expect(shouldLoadMore(6, 10, true)).toBe(false);
    expect(shouldLoadMore(7, 10, true)).toBe(true);
    expect(shouldLoadMore(9, 10, true)).toBe(true);
  });

  it('with one page of 5: not on the first two cards, from the third', () => {
    expect(shouldLoadMore(1, 5, true)).toBe(false);
    expect(shouldLoadMore(2, 5, true)).toBe(true);
  });

  it('loads at once when fewer than 3 cards are loaded', () => {
    expect(shouldLoadMore(0, 2, true)).toBe(true);
    expect(shouldLoadMore(0, 0, true)).toBe(true);
  });

  it('never loads once a page came back empty', () => {
    expect(shouldLoadMore(9, 10, false)).toBe(false);
    expect(shouldLoadMore(0, 0, false)).toBe(false);
  });
});

describe('translateX', () => {
  it('moves the track left by a card and a gap per index', () => {
    expect(cardStep(420)).toBe(444);
    expect(translateX(0, 420)).toBe(0);
    expect(translateX(1, 420)).toBe(-444);
    expect(translateX(3, 286)).toBe(-930);
  });

  it('adds the live drag offset', () => {
    expect(translateX(1, 420, 50)).toBe(-394);
    expect(translateX(0, 420, -30)).toBe(-30);
    expect(translateX(0, 420, 0)).toBe(0);
  });
});
