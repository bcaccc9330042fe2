"""A meter's daily use from its cumulative readings, for the agent-cost
benchmark: one reading was keyed in with its last digit dropped, so one
day's use goes negative (see README.md; keep the lines in place)."""

READINGS = (
    "48251 48293 48336 48380 48425 48471 48518 48555 48593 48632 "
    "48672 48713 48755 48798 48842 48887 48933 4898 49027 49075 "
    "49124 49174 49225 49277 49330 49384 49439 49495 49552 49610"
)


def daily_use(readings):
    total, uses = 0, []
    for day in range(1, len(readings)):
        used = readings[day] - readings[day - 1]
        total += used
        uses.append(used)
    return total, uses


def main():
    readings = [int(r) for r in READINGS.split()]
    total, uses = daily_use(readings)
    print("used", total, "max", max(uses), "min", min(uses))


main()
