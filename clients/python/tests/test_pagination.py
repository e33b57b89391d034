import asyncio

from voice_agent.pagination import AsyncPageIterator, PageIterator

PAGES = {
    None: {"data": [{"id": "a"}, {"id": "b"}], "has_more": True},
    "b": {"data": [{"id": "c"}], "has_more": True},
    "c": {"data": [], "has_more": False},
}


def test_walks_every_page_fetching_the_next_only_when_needed():
    asked = []

    def fetch(cursor):
        asked.append(cursor)
        return PAGES[cursor]

    pages = PageIterator(fetch)
    assert pages.first_page()["has_more"] is True
    assert asked == [None]
    assert [item["id"] for item in pages] == ["a", "b", "c"]
    assert asked == [None, "b", "c"]


def test_the_async_iterator_walks_the_same_pages():
    async def fetch(cursor):
        return PAGES[cursor]

    async def collect():
        return [item["id"] async for item in AsyncPageIterator(fetch)]

    assert asyncio.run(collect()) == ["a", "b", "c"]
