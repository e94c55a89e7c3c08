import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useAppDispatch } from '../../../app/hooks';
import { pageVisited } from '../actions';

/** Sends a page_visit event on every route change. */
export function PageVisitTracker() {
  const { pathname, search } = useLocation();
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(pageVisited({ path: pathname, url: window.location.href }));
  }, [dispatch, pathname, search]);
  return null;
}
