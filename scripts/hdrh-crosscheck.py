#!/usr/bin/env python3
"""Cross-checks Rehearsal's HdrHistogram encoding against the reference Python implementation
(`pip install hdrhistogram`, module `hdrh`), which reads and writes the same V2 compressed,
base64 format as Java's encodeIntoCompressedByteBuffer ("HISTFAAA...").

  hdrh-crosscheck.py decode BASE64          -> JSON: the histogram the reference decodes
  hdrh-crosscheck.py encode VALUE:COUNT ... -> the reference's encoding of those recordings
                                               (lowest 1, highest 3600000000 us, 3 digits)

Used by ScenariosTests' HdrHistogramCodecTests (skipped when python3 or hdrh is absent).
"""
import json
import sys

from hdrh.histogram import HdrHistogram


def describe(histogram):
    recorded = [[item.value_iterated_to, item.count_at_value_iterated_to]
                for item in histogram.get_recorded_iterator()]
    return {
        "total": histogram.get_total_count(),
        "min": histogram.get_min_value(),
        "max": histogram.get_max_value(),
        "percentiles": {str(p): histogram.get_value_at_percentile(p) for p in (50, 90, 99, 99.9, 100)},
        "recorded": recorded,
    }


def main(argv):
    if len(argv) >= 2 and argv[0] == "decode":
        print(json.dumps(describe(HdrHistogram.decode(argv[1])), sort_keys=True))
    elif len(argv) >= 1 and argv[0] == "encode":
        histogram = HdrHistogram(1, 3_600_000_000, 3)
        for pair in argv[1:]:
            value, count = pair.split(":")
            histogram.record_value(int(value), int(count))
        print(histogram.encode().decode("ascii"))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
