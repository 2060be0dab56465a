"""paddle.vision.transforms: functional (dispatching to the OpenCV / Pillow / tensor backends as Paddle does) and
the transform classes. Exported at Paddle's paths: paddle.vision.transforms.<name>, .functional.<fn>,
.transforms.<Class>, .functional_cv2 / functional_pil / functional_tensor.<fn>, and paddle.vision.<name> for the
names paddle.vision re-exports."""

import inspect

from paddle_compat.engine.framework.registry import export
from paddle_compat.paddle2.vision.transforms import functional, functional_cv2, functional_pil, functional_tensor, transforms

_API = "paddle.vision.transforms"
FUNCTIONS = ("to_tensor", "resize", "pad", "crop", "center_crop", "hflip", "vflip", "adjust_brightness",
             "adjust_contrast", "adjust_saturation", "adjust_hue", "affine", "rotate", "perspective", "to_grayscale",
             "normalize", "erase")
CLASSES = ("BaseTransform", "Compose", "Resize", "RandomResizedCrop", "CenterCrop", "RandomHorizontalFlip",
           "RandomVerticalFlip", "Transpose", "Normalize", "BrightnessTransform", "SaturationTransform",
           "ContrastTransform", "HueTransform", "ColorJitter", "RandomCrop", "Pad", "RandomAffine", "RandomRotation",
           "RandomPerspective", "Grayscale", "ToTensor", "RandomErasing")
# what paddle.vision imports from .transforms (2.6.2)
_VISION = set(CLASSES) - {"RandomAffine", "RandomPerspective", "RandomErasing"} | (
    set(FUNCTIONS) - {"adjust_saturation", "affine", "perspective", "erase"})

for _name in FUNCTIONS:
    _fn = getattr(functional, _name)
    paths = [f"{_API}.{_name}", f"{_API}.functional.{_name}"] + (
        [f"paddle.vision.{_name}"] if _name in _VISION else [])
    export(_fn, *paths)
for _name in CLASSES:
    _cls = getattr(transforms, _name)
    export(_cls, f"{_API}.{_name}", f"{_API}.transforms.{_name}",
           *([f"paddle.vision.{_name}"] if _name in _VISION else []))
for _mod in (functional_cv2, functional_pil, functional_tensor):
    for _name, _fn in vars(_mod).items():
        if inspect.isfunction(_fn) and not _name.startswith("_") and _fn.__module__ == _mod.__name__:
            export(_fn, f"{_API}.{_mod.__name__.rpartition('.')[2]}.{_name}")
