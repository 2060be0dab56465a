"""Case E: dygraph Conv2D -> BatchNorm2D -> ReLU -> MaxPool2D -> Flatten -> Linear, Momentum SGD, Paddle 2.6.2.

Run with /work/oracle/p26."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.nn as nn  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

from _common import convbn_data, save  # noqa: E402

paddle.disable_static()
paddle.set_device("cpu")
D = convbn_data()

net = nn.Sequential(
    nn.Conv2D(1, 4, 3, padding=1),
    nn.BatchNorm2D(4),
    nn.ReLU(),
    nn.MaxPool2D(2),
    nn.Flatten(),
    nn.Linear(4 * 4 * 4, 3),
)
init_sd = {
    "0.weight": D["conv_w"], "0.bias": D["conv_b"],
    "1.weight": D["bn_w"], "1.bias": D["bn_b"], "1._mean": D["bn_mean"], "1._variance": D["bn_var"],
    "5.weight": D["fc_w"], "5.bias": D["fc_b"],
}
sd_before = net.state_dict()
meta = {
    "state_dict_keys": list(sd_before.keys()),
    "state_dict_shapes": {k: list(v.shape) for k, v in sd_before.items()},
    "state_dict_tensor_names": {k: v.name for k, v in sd_before.items()},
    "named_parameters": [[n, p.name, list(p.shape), bool(p.stop_gradient), bool(p.trainable)]
                         for n, p in net.named_parameters()],
    "named_buffers": [[n, b.name, list(b.shape)] for n, b in net.named_buffers()],
}
missing = net.set_state_dict(init_sd)
meta["set_state_dict_return"] = str(missing)
for k, v in net.state_dict().items():
    assert np.array_equal(v.numpy(), init_sd[k]), k

opt = paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9, parameters=net.parameters())
net.train()
losses = []
arrays = {"xs": D["xs"], "labels": D["labels"], "x_eval": D["x_eval"]}
for k, v in init_sd.items():
    arrays["init__" + k] = v
for step in range(5):
    x = paddle.to_tensor(D["xs"][step])
    y = paddle.to_tensor(D["labels"][step])
    logits = net(x)
    loss = F.cross_entropy(logits, y)
    if step == 0:
        meta["loss_shape"] = list(loss.shape)
        meta["logits_shape"] = list(logits.shape)
        arrays["step0_train_logits"] = logits.numpy()
    loss.backward()
    if step == 0:
        for n, p in net.named_parameters():
            meta.setdefault("step0_grad_is_none", {})[n] = p.grad is None
            if p.grad is not None:
                arrays["step0_grad__" + n] = p.grad.numpy()
    opt.step()
    opt.clear_grad()
    losses.append(float(loss.numpy()))
    if step == 0:
        for k, v in net.state_dict().items():
            if k.startswith("1._"):
                arrays["after_step0__" + k] = v.numpy()
    if step == 2:  # after 3 steps: cross-check point with static_convbn_infer26
        for k, v in net.state_dict().items():
            arrays["after_3_steps__" + k] = v.numpy()
arrays["losses"] = np.array(losses, "float32")
for k, v in net.state_dict().items():
    arrays["final__" + k] = v.numpy()
net.eval()
with paddle.no_grad():
    ev = net(paddle.to_tensor(D["x_eval"]))
arrays["eval_logits"] = ev.numpy()
arrays["eval_probs"] = F.softmax(ev).numpy()
meta["opt_state_dict_keys"] = sorted(opt.state_dict().keys())
meta.update(
    paddle_version=paddle.__version__,
    program="dygraph: net=nn.Sequential(Conv2D(1,4,3,padding=1), BatchNorm2D(4), ReLU(), MaxPool2D(2), Flatten(), "
            "Linear(64,3)); net.set_state_dict(init__*); opt=paddle.optimizer.Momentum(learning_rate=0.05, "
            "momentum=0.9, parameters=net.parameters()); net.train(); 5 steps: loss=F.cross_entropy(net(xs[i]), "
            "labels[i]); loss.backward(); opt.step(); opt.clear_grad(); then net.eval(); eval_logits=net(x_eval)")
save("dygraph_convbn26", arrays, meta)
