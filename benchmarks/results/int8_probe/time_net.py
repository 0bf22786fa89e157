import sys, time
import numpy as np, openvino as ov
core = ov.Core()
shape = [int(x) for x in sys.argv[1].split(",")]
x = np.random.rand(*shape).astype(np.float32)
for xml in sys.argv[2:]:
    m = core.read_model(xml)
    if m.inputs[0].partial_shape.is_dynamic or m.inputs[0].partial_shape[0].get_length() != shape[0]:
        m.reshape({m.inputs[0]: ov.PartialShape(shape)})
    c = core.compile_model(m, "CPU", {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": 2, "INFERENCE_PRECISION_HINT": "f32"})
    r = c.create_infer_request()
    for _ in range(5): r.infer({0: x})
    ts = []
    for _ in range(40):
        t0 = time.perf_counter(); r.infer({0: x}); ts.append(time.perf_counter() - t0)
    print(f"{xml}: median {np.median(ts)*1e3:.2f} ms")
