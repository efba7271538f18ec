//! ragdoll-tuner: a desktop editor for physics ragdolls stored in glTF extras.
//!
//! Layers, each unaware of its consumers:
//! - [`document`]: glTF + physics extras + diagnostics, lossless save (no GL, no UI);
//! - [`anatomy`]: the character's kind, bone roles, sides, twins and axes (pure);
//! - [`mannequin`]: the generator of the bundled default character;
//! - [`sim`]: the live Rapier simulation built from a document (no UI);
//! - [`render`]: the 3D viewport's scene (three-d; glam math testable without GL);
//! - [`app`]: the editor GUI (eframe/egui);
//! - [`presets`]: limits-and-gains presets by role (built-in humanoid, user files);
//! - [`cli`]: the command-line front end over the same layers as the GUI.

pub mod anatomy;
pub mod anim;
pub mod app;
pub mod cli;
pub mod doctor;
pub mod document;
pub mod generate;
pub mod joint;
pub mod mannequin;
pub mod mirror;
pub mod presets;
pub mod render;
pub mod shapes;
pub mod sim;
pub mod timeline;
pub mod tune;
