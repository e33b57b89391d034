"""Cursor pagination as iterators: a list method's answer iterates every item of every page, fetching
the next page (the last item's id as ``starting_after``, or ``after`` for the events feed) only when it
is needed; ``.first_page()`` gives the first page itself (``{"data": [...], "has_more": bool}``)."""

from __future__ import annotations

from typing import Any, AsyncIterator, Awaitable, Callable, Generic, Iterator, Optional, TypeVar

Page = dict[str, Any]
T = TypeVar("T")


class PageIterator(Generic[T]):
    def __init__(self, fetch: Callable[[Optional[str]], Page], cursor_of: Callable[[Any], str] = lambda i: i["id"]):
        self._fetch = fetch
        self._cursor_of = cursor_of
        self._first: Page | None = None

    def first_page(self) -> Page:
        if self._first is None:
            self._first = self._fetch(None)
        return self._first

    def __iter__(self) -> Iterator[T]:
        page = self.first_page()
        while True:
            items = page.get("data") or []
            yield from items
            if not page.get("has_more") or not items:
                return
            page = self._fetch(self._cursor_of(items[-1]))


class AsyncPageIterator(Generic[T]):
    def __init__(
        self,
        fetch: Callable[[Optional[str]], Awaitable[Page]],
        cursor_of: Callable[[Any], str] = lambda i: i["id"],
    ):
        self._fetch = fetch
        self._cursor_of = cursor_of
        self._first: Page | None = None

    async def first_page(self) -> Page:
        if self._first is None:
            self._first = await self._fetch(None)
        return self._first

    async def __aiter__(self) -> AsyncIterator[T]:
        page = await self.first_page()
        while True:
            items = page.get("data") or []
            for item in items:
                yield item
            if not page.get("has_more") or not items:
                return
            page = await self._fetch(self._cursor_of(items[-1]))
