"""When the language server starts an analysis and shows its findings (``publish_times``)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("now", "stale_since", "took", "start", "show"),
    [
        (10.0, 10.0, 0.06, 10.09, 10.15),  # a pause: shown after the debounce, started as long before as the last one took
        (10.0, 10.0, 0.0, 10.15, 10.15),  # nothing measured yet: started after the debounce
        (10.0, 10.0, 0.4, 10.0, 10.15),  # an analysis longer than the debounce: started at once
        (10.0, 9.6, 0.06, 10.04, 10.1),  # steady typing: shown half a second after they went stale
        (10.0, 9.0, 0.06, 10.0, 10.0),  # stale for longer: started and shown at once
    ],
)
def test_when_an_analysis_starts_and_its_findings_are_shown(now, stale_since, took, start, show):
    from confnotes.lsp.server import publish_times

    assert publish_times(now, stale_since, 0.15, took) == pytest.approx((start, show))
