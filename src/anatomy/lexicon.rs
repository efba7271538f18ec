//! Body-part and side words in the languages rigs are named in besides English, each read as
//! the English word the name rules know: a German-named wolf (`Becken`, `Brust`, `Hals`,
//! `Kopf`, `Oberschenkel_L`, `Schwanz`) read no name at all, and in a running pose with one
//! paw on the ground it was taken for a biped, its ear its head. One word for one word: a
//! word that is also English, or short enough to be part of other words, is left out.

/// (word, English word) for German, French, Spanish, Italian and Portuguese, lower case,
/// with and without accents (exporters often strip them).
const WORDS: &[(&str, &str)] = &[
    // Sides.
    ("links", "left"),
    ("rechts", "right"),
    ("gauche", "left"),
    ("droite", "right"),
    ("droit", "right"),
    ("izquierdo", "left"),
    ("izquierda", "left"),
    ("derecho", "right"),
    ("derecha", "right"),
    ("sinistra", "left"),
    ("sinistro", "left"),
    ("destra", "right"),
    ("destro", "right"),
    ("esquerdo", "left"),
    ("esquerda", "left"),
    ("direito", "right"),
    ("direita", "right"),
    // Trunk.
    ("becken", "pelvis"),
    ("hüfte", "hips"),
    ("huefte", "hips"),
    ("bassin", "pelvis"),
    ("hanche", "hip"),
    ("cadera", "hips"),
    ("bacino", "pelvis"),
    ("anca", "hip"),
    ("quadril", "hips"),
    ("bauch", "spine"),
    ("rücken", "spine"),
    ("ruecken", "spine"),
    ("wirbelsäule", "spine"),
    ("wirbelsaeule", "spine"),
    ("colonne", "spine"),
    ("ventre", "spine"),
    ("columna", "spine"),
    ("espalda", "spine"),
    ("colonna", "spine"),
    ("schiena", "spine"),
    ("coluna", "spine"),
    ("brust", "chest"),
    ("brustkorb", "chest"),
    ("poitrine", "chest"),
    ("pecho", "chest"),
    ("petto", "chest"),
    ("peito", "chest"),
    ("hals", "neck"),
    ("nacken", "neck"),
    ("cou", "neck"),
    ("cuello", "neck"),
    ("collo", "neck"),
    ("pescoço", "neck"),
    ("pescoco", "neck"),
    ("kopf", "head"),
    ("tête", "head"),
    ("tete", "head"),
    ("cabeza", "head"),
    ("testa", "head"),
    ("cabeça", "head"),
    ("cabeca", "head"),
    ("schwanz", "tail"),
    ("schweif", "tail"),
    ("queue", "tail"),
    ("cola", "tail"),
    ("coda", "tail"),
    ("cauda", "tail"),
    // Arms.
    ("schulter", "shoulder"),
    ("épaule", "shoulder"),
    ("epaule", "shoulder"),
    ("hombro", "shoulder"),
    ("spalla", "shoulder"),
    ("ombro", "shoulder"),
    ("schlüsselbein", "clavicle"),
    ("schluesselbein", "clavicle"),
    ("clavicule", "clavicle"),
    ("clavícula", "clavicle"),
    ("clavicula", "clavicle"),
    ("oberarm", "upperarm"),
    ("unterarm", "forearm"),
    ("avantbras", "forearm"),
    ("antebrazo", "forearm"),
    ("avambraccio", "forearm"),
    ("antebraço", "forearm"),
    ("antebraco", "forearm"),
    ("ellbogen", "elbow"),
    ("ellenbogen", "elbow"),
    ("coude", "elbow"),
    ("codo", "elbow"),
    ("gomito", "elbow"),
    ("cotovelo", "elbow"),
    ("handgelenk", "wrist"),
    ("poignet", "wrist"),
    ("muñeca", "wrist"),
    ("muneca", "wrist"),
    ("polso", "wrist"),
    ("pulso", "wrist"),
    ("mano", "hand"),
    ("mão", "hand"),
    ("bras", "arm"),
    ("brazo", "arm"),
    ("braccio", "arm"),
    ("braço", "arm"),
    ("braco", "arm"),
    // Legs.
    ("oberschenkel", "thigh"),
    ("unterschenkel", "shin"),
    ("cuisse", "thigh"),
    ("muslo", "thigh"),
    ("coscia", "thigh"),
    ("coxa", "thigh"),
    ("knie", "knee"),
    ("genou", "knee"),
    ("rodilla", "knee"),
    ("ginocchio", "knee"),
    ("joelho", "knee"),
    ("wade", "calf"),
    ("mollet", "calf"),
    ("bein", "leg"),
    ("jambe", "leg"),
    ("pierna", "leg"),
    ("gamba", "leg"),
    ("perna", "leg"),
    ("vorderbein", "arm"),
    ("hinterbein", "leg"),
    ("vorderpfote", "hand"),
    ("hinterpfote", "foot"),
    ("fuß", "foot"),
    ("fuss", "foot"),
    ("pfote", "foot"),
    ("pied", "foot"),
    ("patte", "foot"),
    ("pata", "foot"),
    ("piede", "foot"),
    ("zampa", "foot"),
    ("knöchel", "ankle"),
    ("knoechel", "ankle"),
    ("cheville", "ankle"),
    ("tobillo", "ankle"),
    ("caviglia", "ankle"),
    ("tornozelo", "ankle"),
    ("zeh", "toe"),
    ("zehe", "toe"),
    ("zehen", "toe"),
    ("orteil", "toe"),
    // Fingers.
    ("daumen", "thumb"),
    ("pouce", "thumb"),
    ("pulgar", "thumb"),
    ("pollice", "thumb"),
    ("polegar", "thumb"),
    ("doigt", "finger"),
    ("dedo", "finger"),
    ("dito", "finger"),
];

/// The English word for `word` (lower case), or `word` itself.
pub fn english(word: &str) -> &str {
    WORDS
        .iter()
        .find(|(w, _)| *w == word)
        .map_or(word, |(_, e)| e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_is_lower_case_once_and_never_english() {
        let english_words = [
            "hand", "finger", "arm", "leg", "head", "neck", "spine", "tail",
        ];
        for (k, (w, e)) in WORDS.iter().enumerate() {
            assert_eq!(*w, w.to_lowercase(), "{w}");
            assert!(!english_words.contains(w), "{w} is English");
            assert!(!WORDS[..k].iter().any(|(o, _)| o == w), "{w} twice");
            assert_eq!(english(e), *e, "{e} maps to itself");
        }
    }
}
