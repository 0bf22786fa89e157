"""Design (b): a class-agnostic tile detector followed by a crop classifier over the 36 classes.

- `crops`: tile crops (upright, square-resized) cut from YOLO-labelled photos into an ImageFolder.
- `training`: the 1-class detector (ultralytics `single_cls`) and the crop classifier (ultralytics classify).
- `fastcls`: a lean in-memory training loop for the same classifier (the one used for the shipped comparison).
- `export`: both networks to ONNX + OpenVINO in one model directory (meta.json "design": "two_stage").
- `characters`: a general Chinese text recognizer's second opinion on the character tiles the classifier doubts.
- `backend`: detector -> crops -> batched classifier (-> character recognizer) -> `Detections`.
"""
