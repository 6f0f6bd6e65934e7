import pytest


@pytest.fixture(scope="session")
def annotations():
    from actionable.worlds.virtualhome.goals import load_goal_annotations

    return load_goal_annotations()
