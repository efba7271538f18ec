//! Every real file opens (issue 20 §1): meshopt compression and mesh quantization, accessors
//! without a buffer view, sparse accessors, several skins sharing joints, duplicate names,
//! nodes that are both a joint and a mesh, rigid meshes carried by bones, Draco-compressed
//! meshes (`draco`), and a clear error for a required extension the tool cannot read. Real
//! files from `../shared/assets` (`real`), tiny synthetic ones written into a temp folder
//! (`synthetic`).

mod draco;
mod real;
mod synthetic;
