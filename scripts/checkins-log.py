#!/usr/bin/env python3
"""Writes a synthetic SafeNSound check-in log for `rehearse timeline` (docs/timeline.md).

usage: scripts/checkins-log.py USERS DAYS [SEED] > log.csv

Deterministic for a seed. Each user onboards in the first 12 h (threshold 24/48/72 h, one of six
zones), then checks in every 8-40 h; every fifth user never checks in again (pre-notification and
email); every tenth changes the threshold once. Starts 2026-03-06 18:00 UTC, so the US spring
forward (2026-03-08) falls inside a 4-day log.
"""
import random
import sys

users, days = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
zones = ["America/Los_Angeles", "America/New_York", "Europe/London", "Asia/Tokyo", "Australia/Sydney", "UTC"]
start = 1772820000  # 2026-03-06T18:00:00Z
end = start + days * 86400
rows = []
for n in range(users):
    user = f"u{n}"
    zone = zones[n % len(zones)]
    t = start + rng.randrange(12 * 3600)
    threshold = (24, 48, 72)[n % 3]
    if threshold != 72:
        rows.append((t, user, f"set-threshold:{threshold}", zone))
    rows.append((t, user, "checkin", zone))
    if n % 5 == 0:
        continue
    changed = n % 10 != 1
    while True:
        t += rng.randrange(8 * 3600, 40 * 3600)
        if t >= end:
            break
        if not changed:
            changed = True
            rows.append((t, user, "set-threshold:%d" % rng.choice((24, 48, 72)), zone))
            t += 1
        rows.append((t, user, "checkin", zone))
rows.sort()
out = sys.stdout
out.write("timestamp,user,event,timezone\n")
for t, user, event, zone in rows:
    out.write(f"{t},{user},{event},{zone}\n")
