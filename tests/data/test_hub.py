"""paddle.hub on a local repository folder; github / gitee sources use Paddle's cache folder or say clearly
that they need a local copy."""

from __future__ import annotations

import pytest

HUBCONF = '''
dependencies = ["numpy"]
from helper import scale


def small_linear(in_features=2, out_features=3):
    """A paddle.nn.Linear(in_features, out_features)."""
    import paddle
    return paddle.nn.Linear(in_features, out_features)


def twice(x=1):
    """Twice x."""
    return scale(x, 2)


def _private():
    pass


VERSION = "1.0"
'''


@pytest.fixture
def repo(tmp_path):
    path = tmp_path / "repo"
    path.mkdir()
    (path / "hubconf.py").write_text(HUBCONF)
    (path / "helper.py").write_text("def scale(x, k):\n    return x * k\n")
    return path


def test_local_list_help_load(repo):
    import paddle

    assert paddle.hub.list(str(repo), source="local") == ["scale", "small_linear", "twice"]
    assert paddle.hub.help(str(repo), "twice", source="local") == "Twice x."
    assert paddle.hub.load(str(repo), "twice", source="local", x=21) == 42
    layer = paddle.hub.load(str(repo), "small_linear", source="local", in_features=4)
    assert list(layer.weight.shape) == [4, 3]


def test_errors(repo, tmp_path, monkeypatch):
    import paddle
    from paddle_compat.paddle2.utils import hub

    with pytest.raises(ValueError, match='Unknown source: "svn"'):
        paddle.hub.list(str(repo), source="svn")
    with pytest.raises(RuntimeError, match="Cannot find callable VERSION in hubconf"):
        paddle.hub.load(str(repo), "VERSION", source="local")
    (repo / "hubconf.py").write_text(HUBCONF.replace('["numpy"]', '["numpy", "no_such_pkg_xyz"]'))
    with pytest.raises(RuntimeError, match="Missing dependencies: no_such_pkg_xyz"):
        paddle.hub.load(str(repo), "twice", source="local")
    monkeypatch.setattr(hub, "HUB_DIR", str(tmp_path / "hub"))
    with pytest.raises(RuntimeError, match=r"paddle.hub.list\(source='github'\): paddle_compat does not download "
                                           r"repositories from github.*source='local'"):
        paddle.hub.list("PaddlePaddle/PaddleClas:release/2.5")


def test_github_source_uses_paddles_cache(repo, tmp_path, monkeypatch):
    import shutil

    import paddle
    from paddle_compat.paddle2.utils import hub

    monkeypatch.setattr(hub, "HUB_DIR", str(tmp_path / "hub"))
    (repo / "hubconf.py").write_text(HUBCONF)
    shutil.copytree(repo, tmp_path / "hub" / "owner_name_release_2.5")
    assert paddle.hub.load("owner/name:release/2.5", "twice", x=2) == 4
