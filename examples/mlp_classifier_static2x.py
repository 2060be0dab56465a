# A Paddle 2.x static-graph script: MLP classifier with Adam, accuracy, a test clone and CompiledProgram.
# Runs unchanged on real Paddle 2.x; here on torch through paddle_compat. Synthetic data (no downloads).
import numpy as np
import paddle
import paddle.nn.functional as F
import paddle.static as static

paddle.enable_static()
paddle.seed(1)

rng = np.random.RandomState(0)
centers = rng.randn(4, 20).astype("float32") * 3
labels_all = rng.randint(0, 4, size=(512, 1)).astype("int64")
data_all = (centers[labels_all[:, 0]] + rng.randn(512, 20)).astype("float32")

x = static.data(name="x", shape=[None, 20], dtype="float32")
label = static.data(name="label", shape=[None, 1], dtype="int64")
h = static.nn.fc(x, 64, activation="relu")
h = static.nn.fc(h, 64, activation="relu")
logits = static.nn.fc(h, 4)
loss = paddle.mean(F.cross_entropy(logits, label))
acc = static.accuracy(F.softmax(logits), label)
test_program = static.default_main_program().clone(for_test=True)
paddle.optimizer.Adam(learning_rate=0.01).minimize(loss)

exe = static.Executor(paddle.CPUPlace())
exe.run(static.default_startup_program())
train = static.CompiledProgram(static.default_main_program())
for epoch in range(3):
    for i in range(0, 448, 32):
        l, a = exe.run(train, feed={"x": data_all[i:i + 32], "label": labels_all[i:i + 32]}, fetch_list=[loss, acc])
    print("epoch %d: loss %.4f acc %.3f" % (epoch, l[0], a[0]))
tl, ta = exe.run(test_program, feed={"x": data_all[448:], "label": labels_all[448:]}, fetch_list=[loss, acc])
print("test loss %.4f acc %.3f" % (tl[0], ta[0]))
assert ta[0] > 0.9, "the classifier did not learn"
