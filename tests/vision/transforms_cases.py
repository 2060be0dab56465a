"""paddle.vision.transforms cases (numpy / PIL only): tools/oracle/rec_transforms26.py runs them in real Paddle
2.6.2, tests/vision/test_transforms.py here.

Inputs (INPUTS): numpy HWC uint8 images (Paddle's OpenCV path), PIL images (its Pillow path) and CHW float
tensors (its tensor path). A case is `fn(T, img)` with T the paddle.vision.transforms module, run on each input
kind it lists; random transforms run after `random.seed(SEED)` and `np.random.seed(SEED)` on both sides (Paddle
draws its parameters from Python's `random` and numpy's global state), so their outputs must match exactly."""

import numpy as np

SEED = 3


def make_inputs():
    """name -> (kind, numpy data): 'np' HWC uint8, 'pil' (built from the array, mode RGB or L), 't' CHW float32."""
    rs = np.random.RandomState(0)
    rgb = rs.randint(0, 256, (9, 12, 3)).astype("uint8")
    gray = rs.randint(0, 256, (9, 12, 1)).astype("uint8")
    return {"np": ("np", rgb), "np1": ("np", gray), "pil": ("pil", rgb), "pilL": ("pil", gray[:, :, 0]),
            "t": ("t", rs.rand(3, 9, 12).astype("float32"))}


NP, PIL, T_ = ("np",), ("pil",), ("t",)
IMG = ("np", "pil", "t")
ALL = ("np", "np1", "pil", "pilL", "t")
COLOR = ("np", "pil", "t")

# name -> (inputs it runs on, fn(T, img), random?)
CASES = {
    # resize
    "resize_bilinear": (ALL, lambda T, x: T.resize(x, (5, 7)), False),
    "resize_up": (ALL, lambda T, x: T.resize(x, (13, 17)), False),
    "resize_short_side": (ALL, lambda T, x: T.resize(x, 6), False),
    "resize_short_side_up": (IMG, lambda T, x: T.resize(x, 14), False),
    "resize_nearest": (ALL, lambda T, x: T.resize(x, (5, 7), "nearest"), False),
    "resize_nearest_up": (IMG, lambda T, x: T.resize(x, (15, 19), "nearest"), False),
    "resize_bicubic": (IMG, lambda T, x: T.resize(x, (9, 10), "bicubic"), False),
    "resize_area": (NP, lambda T, x: T.resize(x, (5, 6), "area"), False),
    "resize_lanczos": (NP + PIL, lambda T, x: T.resize(x, (8, 9), "lanczos"), False),
    "resize_box": (PIL, lambda T, x: T.resize(x, (5, 6), "box"), False),
    "resize_hamming": (PIL, lambda T, x: T.resize(x, (5, 6), "hamming"), False),
    # pad / crop / flip
    "pad_const": (ALL, lambda T, x: T.pad(x, [1, 2, 3, 4], fill=7 if not hasattr(x, "place") else 0.5), False),
    "pad_fill_tuple": (NP + PIL, lambda T, x: T.pad(x, 2, fill=(10, 20, 30)), False),
    "pad_edge": (ALL, lambda T, x: T.pad(x, 2, padding_mode="edge"), False),
    "pad_reflect": (ALL, lambda T, x: T.pad(x, (1, 2), padding_mode="reflect"), False),
    "pad_symmetric": (("np", "np1", "pil", "pilL"), lambda T, x: T.pad(x, (3, 1, 0, 2), padding_mode="symmetric"),
                      False),
    "crop": (ALL, lambda T, x: T.crop(x, 1, 2, 4, 5), False),
    "center_crop": (ALL, lambda T, x: T.center_crop(x, (4, 5)), False),
    "center_crop_int": (ALL, lambda T, x: T.center_crop(x, 6), False),
    "hflip": (ALL, lambda T, x: T.hflip(x), False),
    "vflip": (ALL, lambda T, x: T.vflip(x), False),
    # colour
    "brightness_up": (ALL, lambda T, x: T.adjust_brightness(x, 1.3), False),
    "brightness_down": (ALL, lambda T, x: T.adjust_brightness(x, 0.4), False),
    "contrast_down": (ALL, lambda T, x: T.adjust_contrast(x, 0.7), False),
    "contrast_up": (ALL, lambda T, x: T.adjust_contrast(x, 1.6), False),
    "saturation_down": (COLOR, lambda T, x: T.functional.adjust_saturation(x, 0.6), True),
    "saturation_up": (COLOR, lambda T, x: T.functional.adjust_saturation(x, 1.5), True),
    "hue_pos": (COLOR + ("pilL",), lambda T, x: T.adjust_hue(x, 0.2), False),
    "hue_neg": (COLOR, lambda T, x: T.adjust_hue(x, -0.3), False),
    "hue_small": (COLOR, lambda T, x: T.adjust_hue(x, 0.02), False),
    "gray1": (COLOR, lambda T, x: T.to_grayscale(x), False),
    "gray3": (COLOR, lambda T, x: T.to_grayscale(x, 3), False),
    # geometry
    "rotate_nearest": (ALL, lambda T, x: T.rotate(x, 30), False),
    "rotate_bilinear": (IMG, lambda T, x: T.rotate(x, -20, "bilinear"), False),
    "rotate_expand": (ALL, lambda T, x: T.rotate(x, 45, expand=True), False),
    "rotate_expand_bilinear": (IMG, lambda T, x: T.rotate(x, 110, "bilinear", expand=True), False),
    "rotate_center": (IMG, lambda T, x: T.rotate(x, 25, center=(3, 4)), False),
    "rotate_fill": (("np", "pil"), lambda T, x: T.rotate(x, 60, fill=100), False),
    "rotate_fill_tuple": (("np", "pil"), lambda T, x: T.rotate(x, -45, fill=(10, 200, 30)), False),
    "affine_nearest": (IMG, lambda T, x: T.affine(x, 15, (2, 1), 0.9, (5, 3)), False),
    "affine_bilinear": (IMG, lambda T, x: T.affine(x, -30, [1, -2], 1.2, 8, "bilinear"), False),
    "affine_center_fill": (("np", "pil"), lambda T, x: T.affine(x, 40, (0, 0), 1.0, [2, 0], fill=50,
                                                                 center=(4, 3)), False),
    "affine_center_t": (T_, lambda T, x: T.affine(x, 40, (0, 0), 1.0, [2, 0], center=(4, 3)), False),
    "perspective_nearest": (IMG, lambda T, x: T.perspective(x, [[0, 0], [11, 0], [11, 8], [0, 8]],
                                                            [[1, 2], [10, 0], [9, 7], [2, 8]]), False),
    "perspective_bilinear": (IMG, lambda T, x: T.perspective(x, [[0, 0], [11, 0], [11, 8], [0, 8]],
                                                             [[2, 1], [11, 2], [8, 8], [0, 6]], "bilinear"), False),
    "perspective_fill": (("np", "pil"), lambda T, x: T.perspective(x, [[0, 0], [11, 0], [11, 8], [0, 8]],
                                                                   [[3, 2], [8, 1], [10, 7], [1, 6]], fill=90),
                         False),
    # values
    "normalize_chw": (T_, lambda T, x: T.normalize(x, [0.5, 0.4, 0.3], [0.2, 0.3, 0.4]), False),
    "normalize_hwc": (NP + PIL, lambda T, x: T.normalize(x, [10, 20, 30], [2, 3, 4], "HWC"), False),
    "normalize_to_rgb": (NP, lambda T, x: T.normalize(x.astype("float32"), [10, 20, 30], [2, 3, 4], "HWC", True),
                         False),
    "to_tensor": (ALL, lambda T, x: T.to_tensor(x), False),
    "to_tensor_hwc": (("np", "pil"), lambda T, x: T.to_tensor(x, "HWC"), False),
    "erase": (("np", "pil", "t"), lambda T, x: T.erase(x, 2, 3, 4, 5, 0 if not hasattr(x, "place") else
                                                        __import__("paddle").to_tensor(0.5)), False),
    # classes
    "Resize": (ALL, lambda T, x: T.Resize((6, 9))(x), False),
    "Resize_int": (IMG, lambda T, x: T.Resize(7, "nearest")(x), False),
    "CenterCrop": (ALL, lambda T, x: T.CenterCrop(5)(x), False),
    "Pad": (ALL, lambda T, x: T.Pad(2)(x), False),
    "Grayscale": (COLOR, lambda T, x: T.Grayscale(3)(x), False),
    "Normalize": (T_, lambda T, x: T.Normalize(0.5, 0.25)(x), False),
    "Transpose": (NP + PIL, lambda T, x: T.Transpose()(x), False),
    "ToTensor": (ALL, lambda T, x: T.ToTensor()(x), False),
    "RandomCrop": (ALL, lambda T, x: T.RandomCrop(6)(x), True),
    "RandomCrop_pad": (IMG, lambda T, x: T.RandomCrop((10, 14), padding=1, pad_if_needed=True)(x), True),
    "RandomResizedCrop": (ALL, lambda T, x: T.RandomResizedCrop(8)(x), True),
    "RandomResizedCrop_scale": (IMG, lambda T, x: T.RandomResizedCrop((6, 7), scale=(0.3, 0.6),
                                                                      ratio=(0.5, 2.0))(x), True),
    "RandomHorizontalFlip": (ALL, lambda T, x: T.RandomHorizontalFlip(0.5)(x), True),
    "RandomVerticalFlip": (ALL, lambda T, x: T.RandomVerticalFlip(0.5)(x), True),
    "RandomRotation": (IMG, lambda T, x: T.RandomRotation(40)(x), True),
    "RandomRotation_expand": (IMG, lambda T, x: T.RandomRotation((10, 80), "bilinear", expand=True)(x), True),
    "RandomAffine": (IMG, lambda T, x: T.RandomAffine(20, translate=(0.2, 0.1), scale=(0.8, 1.2),
                                                      shear=(-5, 5, -3, 3))(x), True),
    "RandomAffine_bilinear": (("np", "pil"), lambda T, x: T.RandomAffine((5, 30), shear=10, interpolation="bilinear",
                                                                         fill=20)(x), True),
    "RandomPerspective": (IMG, lambda T, x: T.RandomPerspective(1.0, 0.6)(x), True),
    "RandomPerspective_bilinear": (("np", "pil"), lambda T, x: T.RandomPerspective(1.0, 0.3, "bilinear")(x), True),
    "RandomErasing": (("np", "t"), lambda T, x: T.RandomErasing(1.0, value=(9, 8, 7))(x), True),
    "RandomErasing_scale": (("np", "t"), lambda T, x: T.RandomErasing(1.0, scale=(0.1, 0.3), ratio=(0.5, 1.5),
                                                                      value=0)(x), True),
    "BrightnessTransform": (ALL, lambda T, x: T.BrightnessTransform(0.4)(x), True),
    "ContrastTransform": (ALL, lambda T, x: T.ContrastTransform(0.4)(x), True),
    "SaturationTransform": (COLOR, lambda T, x: T.SaturationTransform(0.4)(x), True),
    "HueTransform": (COLOR, lambda T, x: T.HueTransform(0.3)(x), True),
    "ColorJitter": (COLOR, lambda T, x: T.ColorJitter(0.4, 0.4, 0.4, 0.2)(x), True),
    "Compose": (("np", "pil"), lambda T, x: T.Compose([
        T.RandomResizedCrop(9), T.RandomHorizontalFlip(), T.ColorJitter(0.3, 0.3, 0.3, 0.1), T.RandomRotation(10),
        T.ToTensor(), T.Normalize([0.5, 0.5, 0.5], [0.5, 0.5, 0.5])])(x), True),
}
