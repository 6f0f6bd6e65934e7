import pytest


@pytest.fixture(scope="session")
def annotations():
    from actionable.evaluation.goals import load_goal_annotations

    return load_goal_annotations()
