# Imports a glTF file into an empty Blender scene with Blender's own importer and prints one
# JSON line: every action with its f-curves and key counts. Run headless:
#   blender -b --factory-startup --python tools/blender/import_check.py -- FILE
import json
import sys

import numpy

# Blender 3.4's glTF importer still uses numpy.bool, which numpy 1.24 removed.
if not hasattr(numpy, "bool"):
    numpy.bool = bool

import bpy

path = sys.argv[sys.argv.index("--") + 1]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=path)
actions = []
for a in bpy.data.actions:
    curves = [
        {"path": c.data_path, "index": c.array_index, "keys": len(c.keyframe_points)}
        for c in a.fcurves
    ]
    actions.append({"name": a.name, "frame_range": list(a.frame_range), "fcurves": curves})
print("IMPORT_CHECK " + json.dumps({"actions": actions}))
