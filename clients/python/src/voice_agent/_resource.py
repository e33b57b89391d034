"""What every resource shares: one transport (sync or async), and the helpers that make one method
serve both clients: ``_call`` returns the body (a coroutine of it on the async transport), ``_then``
applies a function to a result of either kind, ``_list`` builds a page iterator of the right kind."""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ._http import AsyncTransport, SyncTransport
from .pagination import AsyncPageIterator, PageIterator

Transport = SyncTransport | AsyncTransport


class _Resource:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    @property
    def _async(self) -> bool:
        return isinstance(self._t, AsyncTransport)

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        return self._t.request(method, path, **kwargs)

    def _then(self, result: Any, fn: Callable[[Any], Any]) -> Any:
        """``fn(result)``, or a coroutine of it when ``result`` is one (the async client)."""
        if not self._async:
            return fn(result)

        async def later() -> Any:
            return fn(await result)

        return later()

    def _data(self, path: str, query: Mapping[str, Any] | None = None) -> Any:
        """The ``data`` of an unpaginated list (webhook endpoints, deliveries, the do-not-call list)."""
        return self._then(self._call("GET", path, query=query), lambda page: page["data"])

    def _list(
        self, path: str, query: Mapping[str, Any] | None, id_key: str, cursor: str = "starting_after"
    ) -> Any:
        """Every item of every page; the next page after the last item's ``id_key`` (its id field)."""
        params = dict(query or {})

        def fetch(after: str | None) -> Any:
            return self._t.request("GET", path, query={**params, **({cursor: after} if after else {})})

        if self._async:
            return AsyncPageIterator(fetch, lambda item: item[id_key])
        return PageIterator(fetch, lambda item: item[id_key])


def _id(value: str) -> str:
    """A path segment: ids and E.164 numbers, with ``+`` kept readable but escaped for the path."""
    from urllib.parse import quote

    return quote(str(value), safe="")
