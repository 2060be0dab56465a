"""Case E (dygraph conv+bn+pool trained with Momentum) and case F (static conv+bn, clone for test,
save_inference_model -> load_inference_model) against real Paddle 2.6.2 (tests/goldens/README.md)."""

from __future__ import annotations

import numpy as np

from tests.conftest import load_golden


def _net():
    import paddle.nn as nn

    return nn.Sequential(nn.Conv2D(1, 4, 3, padding=1), nn.BatchNorm2D(4), nn.ReLU(), nn.MaxPool2D(2), nn.Flatten(),
                         nn.Linear(64, 3))


def test_dygraph_convbn_case_e():
    import paddle
    import paddle.nn.functional as F

    meta, g = load_golden("dygraph_convbn26")
    net = _net()
    sd = net.state_dict()
    assert list(sd) == meta["state_dict_keys"]
    assert {k: v.name for k, v in sd.items()} == meta["state_dict_tensor_names"]
    assert [[n, p.name, list(p.shape), bool(p.stop_gradient), bool(p.trainable)]
            for n, p in net.named_parameters()] == meta["named_parameters"]
    assert [[n, b.name, list(b.shape)] for n, b in net.named_buffers()] == meta["named_buffers"]
    missing, unexpected = net.set_state_dict({k: g["init__" + k] for k in meta["state_dict_keys"]})
    assert missing == [] and unexpected == []
    opt = paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9, parameters=net.parameters())
    net.train()
    losses = []
    for step in range(5):
        logits = net(paddle.to_tensor(g["xs"][step]))
        loss = F.cross_entropy(logits, paddle.to_tensor(g["labels"][step]))
        if step == 0:
            np.testing.assert_allclose(logits.numpy(), g["step0_train_logits"], rtol=1e-5, atol=1e-6)
        loss.backward()
        if step == 0:
            for n, p in net.named_parameters():
                if "step0_grad__" + n in g:
                    np.testing.assert_allclose(p.grad.numpy(), g["step0_grad__" + n], rtol=1e-5, atol=1e-6)
                else:
                    assert p.grad is None, n
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
        if step == 0:
            for k in ("1._mean", "1._variance"):
                np.testing.assert_allclose(net.state_dict()[k].numpy(), g["after_step0__" + k], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(losses, g["losses"], rtol=1e-5, atol=1e-6)
    for k, v in net.state_dict().items():
        np.testing.assert_allclose(v.numpy(), g["final__" + k], rtol=1e-5, atol=1e-6, err_msg=k)
    assert sorted(opt.state_dict()) == sorted(meta["opt_state_dict_keys"])
    net.eval()
    np.testing.assert_allclose(net(paddle.to_tensor(g["x_eval"])).numpy(), g["eval_logits"], rtol=1e-5, atol=1e-6)
