"""Sends events to a Courier collector through Segment's own Python library.

Usage: segment_python_send.py BASE_URL WRITE_KEY COUNT

The library batches, gzips (when asked) and retries on its own; this script only tracks,
flushes, and exits non-zero if the library reported any error.
"""
import sys

import segment.analytics as analytics


def main() -> int:
    host, write_key, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    errors = []
    client = analytics.Client(
        write_key,
        host=host,
        gzip=True,
        upload_size=100,
        max_retries=3,
        on_error=lambda error, batch: errors.append(repr(error)),
    )
    for i in range(count):
        client.track(
            user_id=f"peer-user-{i % 10}",
            event="Peer Event",
            properties={"index": i, "price": 19.99, "tags": ["a", "b"], "nested": {"k": None}},
            message_id=f"peer-{i}",
        )
    client.flush()
    client.join()
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
