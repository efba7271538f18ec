// Probe (not committed): a leg's skin around the ankle.
use ragdoll_tuner::document::Document;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    for f in &a[1..] {
        let doc = Document::open(std::path::Path::new(f)).unwrap();
        let geo = doc.load_geometry().unwrap();
        let s = ragdoll_tuner::anatomy::samples::collect(&doc, &geo);
        let find = |n: &str| doc.bones.iter().position(|b| b.name.ends_with(n));
        let pos = |i: usize| {
            doc.skeleton.nodes[doc.bones[i].node]
                .world_from_node
                .w_axis
                .truncate()
        };
        let (Some(leg), Some(foot)) = (find("LeftLeg"), find("LeftFoot")) else {
            continue;
        };
        let toe = find("LeftToeBase");
        let (k, a) = (pos(leg), pos(foot));
        let dir = (a - k).normalize();
        let pts = s.body_skin(leg);
        let past = pts.iter().filter(|p| (**p - a).dot(dir) > 0.0).count();
        let miny = pts.iter().map(|p| p.y).fold(f64::INFINITY, f64::min);
        println!("{}: leg n {} (past the ankle {past}, lowest y {miny:.3}), foot n {} sec {} weighted {}, toe n {:?}; ankle y {:.3} toe {:?}",
            f.rsplit('/').next().unwrap(), pts.len(), s.body_skin(foot).len(), s.secondary[foot].len(), s.weighted[foot],
            toe.map(|t| s.body_skin(t).len()), a.y, toe.map(|t| pos(t)));
    }
}
