"""paddle.vision.models.LeNet."""

from paddle_compat.paddle2.vision.models._layers import P, Conv2D, Layer, Linear, MaxPool2D, ReLU, Sequential
from paddle_compat.paddle2.vision.models._utils import register


class LeNet(Layer):
    """LeNet(num_classes=10): two conv-relu-pool stages on a 1x28x28 input, then three fully connected
    layers (none when num_classes <= 0). Keys: features.{0,3}.*, fc.{0,1,2}.*"""

    def __init__(self, num_classes=10):
        super().__init__()
        self.num_classes = num_classes
        self.features = Sequential(Conv2D(1, 6, 3, stride=1, padding=1), ReLU(), MaxPool2D(2, 2),
                                   Conv2D(6, 16, 5, stride=1, padding=0), ReLU(), MaxPool2D(2, 2))
        if num_classes > 0:
            self.fc = Sequential(Linear(400, 120), Linear(120, 84), Linear(84, num_classes))

    def forward(self, inputs):
        x = self.features(inputs)
        if self.num_classes > 0:
            x = self.fc(P("flatten")(x, 1))
        return x


register("lenet", LeNet)
