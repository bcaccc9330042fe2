"""Call-heavy pytest: 100 000 calls in user code, for the recording benchmark."""
from calls import middle


def test_calls():
    assert sum(middle(1000) for _ in range(100)) == 100 * 1000 * 1000
