import subprocess
from pathlib import Path

from voice_agent import models

ROOT = Path(__file__).resolve().parents[3]


def test_every_schema_of_the_document_is_a_model_with_its_required_fields():
    assert sorted(models.REQUIRED["CreateCallDto"]) == ["agent_config", "from", "to"]
    assert "from" in models.CreateCallDto.__annotations__


def test_the_models_match_the_openapi_document():
    check = subprocess.run(["node", "scripts/python-models.mjs", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
