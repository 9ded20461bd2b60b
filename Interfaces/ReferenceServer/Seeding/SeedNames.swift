/// Word lists for generated users. Many names carry diacritics, strokes, apostrophes,
/// hyphens or spaces, so that search folding and Unicode handling get exercised on every run.
enum SeedNames {
    static let first = [
        "José", "Zoë", "Chloé", "Søren", "Björn", "Renée", "François", "Łukasz", "Ana", "Mia",
        "Noah", "Liam", "Emma", "Olivia", "Mateo", "Lucía", "Jürgen", "Ingrid", "Aoife", "Siobhán",
        "Maëlle", "Hélène", "Ömer", "Çağla", "Dorota", "Małgorzata", "Inês", "João", "Thérèse", "Kenji",
        "Amara", "Priya", "Tomás", "Elif", "Kai", "Lena", "Max", "Sofia", "Jean-Luc", "Marie-Claire",
        "Åsa", "Dağhan", "Nuño", "Zoltán", "Ines", "Jose", "Chloe", "Anaïs", "Bjørn", "Greta",
    ]

    static let last = [
        "García", "Müller", "Núñez", "Ødegaard", "Dubois", "Smith", "Nowak", "Kowalski", "Jensen", "Svensson",
        "Rossi", "Bianchi", "Fernández", "López", "Martín", "Schröder", "Weiß", "Çelik", "Yılmaz", "O'Brien",
        "Nguyễn", "Kim", "Tanaka", "Okafor", "Novák", "Dvořák", "Horváth", "Lindqvist", "Björklund", "Østergaard",
        "Żukowski", "Pérez", "Gonçalves", "Brontë", "Mbeki", "van Dijk", "Garcia", "Muller", "Ferreira", "Dupont",
    ]

    static let sports = [
        "road cycling", "gravel", "mountain biking", "BMX", "track cycling", "cyclocross",
        "bikepacking", "downhill", "enduro", "triathlon", "commuting", "e-bike touring",
    ]

    static let descriptions = [
        "Weekend rider, always up for a coffee stop.",
        "Café rides on Sundays ☕ and hill repeats on Wednesdays.",
        "Learning to descend without braking at every corner.",
        "Happy to show newcomers the trails around the lake.",
        "Commuter turned racer. Ask me about tubeless setups.",
        "Rides in all weather; owns too many jackets.",
        "Former runner, now hooked on long gravel days — 200 km and counting.",
        "Coaches juniors on Tuesday evenings.",
    ]
}
