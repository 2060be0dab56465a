# A Paddle 2.x dygraph script: LeNet-style CNN with paddle.io.DataLoader, Momentum + a step LR scheduler,
# train/eval modes, paddle.save / paddle.load of .pdparams and .pdopt. Synthetic data (no downloads).
import os
import tempfile

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.io import DataLoader, Dataset

paddle.seed(2023)
np.random.seed(2023)


class Blobs(Dataset):
    """Two classes of 1x16x16 images: a bright square top-left or bottom-right."""

    def __init__(self, n):
        self.x = np.random.rand(n, 1, 16, 16).astype("float32") * 0.2
        self.y = np.random.randint(0, 2, size=(n, 1)).astype("int64")
        for i, c in enumerate(self.y[:, 0]):
            if c == 0:
                self.x[i, 0, 2:7, 2:7] += 1.0
            else:
                self.x[i, 0, 9:14, 9:14] += 1.0

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.x)


class LeNet(nn.Layer):
    def __init__(self, num_classes=2):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.BatchNorm2D(6), nn.ReLU(), nn.MaxPool2D(2, 2),
            nn.Conv2D(6, 16, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2))
        self.fc = nn.Linear(16 * 4 * 4, num_classes)

    def forward(self, x):
        x = self.features(x)
        return self.fc(paddle.flatten(x, 1))


model = LeNet()
sched = paddle.optimizer.lr.StepDecay(learning_rate=0.05, step_size=2, gamma=0.5)
opt = paddle.optimizer.Momentum(learning_rate=sched, momentum=0.9, parameters=model.parameters())
loader = DataLoader(Blobs(256), batch_size=32, shuffle=True, drop_last=True)

for epoch in range(4):
    model.train()
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
    sched.step()
    print("epoch %d loss %.4f lr %.4f" % (epoch, float(loss), opt.get_lr()))

model.eval()
test = Blobs(64)
logits = model(paddle.to_tensor(test.x))
acc = float(paddle.metric.accuracy(F.softmax(logits), paddle.to_tensor(test.y)))
print("eval accuracy %.3f" % acc)
assert acc > 0.9, "the CNN did not learn"

with tempfile.TemporaryDirectory() as d:
    paddle.save(model.state_dict(), os.path.join(d, "lenet.pdparams"))
    paddle.save(opt.state_dict(), os.path.join(d, "lenet.pdopt"))
    restored = LeNet()
    restored.set_state_dict(paddle.load(os.path.join(d, "lenet.pdparams")))
    restored.eval()
    np.testing.assert_allclose(restored(paddle.to_tensor(test.x)).numpy(), logits.numpy(), rtol=1e-6)
    assert "conv2d_0.w_0_velocity_0" in paddle.load(os.path.join(d, "lenet.pdopt"))
print("dygraph LeNet OK")
