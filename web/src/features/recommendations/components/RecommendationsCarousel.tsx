import {
  type CSSProperties,
  type PointerEvent as ReactPointerEvent,
  useEffect,
  useRef,
  useState,
} from 'react';
import { Link } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { safeImageUrl } from '../../../shared/safeUrl';
import {
  cardWidth,
  clampIndex,
  GAP,
  nextIndex,
  SLIDE_MS,
  shouldLoadMore,
  swipeResult,
  translateX,
} from '../../carousel/carousel';
import { plainText } from '../../feed/feedRules';
import { recommendationBody, recommendationHeading } from '../../progress/preview';
import { selectSettings } from '../../settings/selectors';
import { RetryLine } from '../../ui/components/StatusLines';
import { selectRecommendations } from '../selectors';
import { moreRecommendationsRequested, recommendationsOpened } from '../slice';
import type { RecommendedPost } from '../types';
import '../recommendations.css';
import { ChevronIcon } from '../../ui/components/ChevronIcon';

/** A pointer that moved this far is a drag, not a tap on a card. */
const DRAG_START_PX = 6;

function useWindowWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

function Card({ post, width, onFocus }: { post: RecommendedPost; width: number; onFocus: () => void }) {
  const [imageFailed, setImageFailed] = useState(false);
  const image = safeImageUrl(post.image);
  return (
    <li className="reco-card" style={{ width, flexBasis: width }}>
      <Link
        to={`/post/${encodeURIComponent(post._id)}`}
        className="reco-card__link"
        draggable={false}
        onFocus={onFocus}
      >
        <div className="reco-card__media">
          {image && !imageFailed && (
            <img src={image} alt="" loading="lazy" draggable={false} onError={() => setImageFailed(true)} />
          )}
        </div>
        <div className="reco-card__body">
          {post.type === 1 && <span className="badge badge--premium">Premium</span>}
          <h3 className="reco-card__heading">{recommendationHeading(post.heading)}</h3>
          <p className="reco-card__preview">{recommendationBody(plainText(post.body ?? post.preview))}</p>
        </div>
      </Link>
    </li>
  );
}

/**
 * reader.md §2/§4/§9: 'You might also like these'. Cards 420 px (window width minus 34 at 500 or narrower) with a
 * 24 px gap; a swipe (pointer events) beyond a quarter of a card moves one card in 300 ms; the next page loads
 * within 3 cards of the end. Previous/Next buttons do the same for keyboard and mouse users.
 */
export function RecommendationsCarousel({ templateId }: { templateId: string }) {
  const dispatch = useAppDispatch();
  const { recommendationheading } = useAppSelector(selectSettings);
  const state = useAppSelector(selectRecommendations);
  const width = cardWidth(useWindowWidth());
  const [index, setIndex] = useState(0);
  const [drag, setDrag] = useState<{
    pointerId: number;
    startX: number;
    deltaX: number;
    moved: boolean;
  } | null>(null);
  const suppressClick = useRef(false);
  const viewport = useRef<HTMLDivElement>(null);
  const count = state.items.length;
  const current = clampIndex(index, count);

  useEffect(() => {
    setIndex(0);
    dispatch(recommendationsOpened(templateId));
  }, [dispatch, templateId]);

  useEffect(() => {
    if (state.status === 'loaded' && !state.loadingMore && shouldLoadMore(current, count, state.hasMore))
      dispatch(moreRecommendationsRequested());
  }, [dispatch, state.status, state.loadingMore, state.hasMore, current, count]);

  if (state.status === 'idle' || (state.status === 'loaded' && count === 0)) return null;

  const go = (step: -1 | 1) => setIndex(nextIndex(current, step, count));

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    suppressClick.current = false;
    setDrag({ pointerId: event.pointerId, startX: event.clientX, deltaX: 0, moved: false });
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag || drag.pointerId !== event.pointerId) return;
    const deltaX = event.clientX - drag.startX;
    const moved = drag.moved || Math.abs(deltaX) > DRAG_START_PX;
    if (moved && !drag.moved) event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({ ...drag, deltaX, moved });
  };
  const endDrag = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag || drag.pointerId !== event.pointerId) return;
    if (drag.moved) {
      suppressClick.current = true;
      setIndex(nextIndex(current, swipeResult(drag.deltaX, width), count));
    }
    setDrag(null);
  };

  const offset = translateX(current, width, drag?.moved ? drag.deltaX : 0);

  return (
    <section className="reco" aria-labelledby="reco-heading" aria-roledescription="carousel">
      <div className="reco__head">
        <h2 id="reco-heading" className="reco__heading">
          {recommendationheading}
        </h2>
        {count > 1 && (
          <div className="reco__buttons">
            <button
              type="button"
              className="icon-button"
              aria-label="Previous"
              disabled={current === 0}
              onClick={() => go(-1)}
            >
              <ChevronIcon direction="left" size={20} />
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label="Next"
              disabled={current >= count - 1}
              onClick={() => go(1)}
            >
              <ChevronIcon direction="right" size={20} />
            </button>
          </div>
        )}
      </div>
      {state.status === 'loading' && <p className="muted">Loading…</p>}
      {state.status === 'failed' && (
        <RetryLine
          message="Recommendations can't be loaded right now."
          onRetry={() => dispatch(recommendationsOpened(templateId))}
        />
      )}
      {count > 0 && (
        <div
          ref={viewport}
          className="reco__viewport"
          onScroll={(event) => {
            // Focus moving to a hidden card scrolls the viewport; the track's offset does the moving instead.
            event.currentTarget.scrollLeft = 0;
          }}
        >
          <div
            className="reco__track-wrap"
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={endDrag}
            onPointerCancel={endDrag}
            onClickCapture={(event) => {
              if (suppressClick.current) {
                event.preventDefault();
                event.stopPropagation();
                suppressClick.current = false;
              }
            }}
          >
            <ul
              className={`reco__track${drag?.moved ? '' : ' reco__track--animated'}`}
              style={
                {
                  gap: GAP,
                  transform: `translateX(${offset}px)`,
                  '--reco-slide': `${SLIDE_MS}ms`,
                } as CSSProperties
              }
            >
              {state.items.map((post, position) => (
                <Card key={post._id} post={post} width={width} onFocus={() => setIndex(position)} />
              ))}
            </ul>
          </div>
          <p className="visually-hidden" aria-live="polite">
            {`${current + 1} of ${count}`}
          </p>
        </div>
      )}
    </section>
  );
}
