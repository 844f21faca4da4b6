"""JSON as the stand-in writes it on its sockets (gateway frames, REST answers): orjson where it is
installed (a dependency of the bot's), the json module otherwise and for what orjson will not write as
it does (an integer past 64 bits; a dataclass or datetime, which the json module refuses: a stand-in bug
stays a TypeError). The documents are the same; only their cost differs (at a thousand tables the
benchmarks' stand-in writes a few thousand frames and answers a second: BENCHMARKS.md, "The steady tail
at 1,000 tables"). What the bot sends is still read by the json module (orjson would read an integer
past 64 bits as a float: a request could be read otherwise than before)."""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover  (orjson is installed wherever the bot's dependencies are)
    orjson = None  # type: ignore[assignment]


# Keys that are no strings written as strings, as json does; dataclasses, datetimes and subclasses of str
# or dict left to json (which refuses the first two: a stand-in bug stays a TypeError).
if orjson is not None:
    _AS_JSON_DOES = (
        orjson.OPT_NON_STR_KEYS
        | orjson.OPT_PASSTHROUGH_DATACLASS
        | orjson.OPT_PASSTHROUGH_DATETIME
        | orjson.OPT_PASSTHROUGH_SUBCLASS
    )


def dumps(data: Any) -> str:
    return dumps_bytes(data).decode()


def dumps_bytes(data: Any) -> bytes:
    if orjson is not None:
        try:
            return orjson.dumps(data, option=_AS_JSON_DOES)
        except TypeError:
            pass  # an integer past 64 bits, a dataclass…: the json module writes it, or refuses it as before
    return json.dumps(data, ensure_ascii=False).encode()
