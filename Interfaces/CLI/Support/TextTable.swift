/// Rows of cells in aligned columns under a header row, for a person at a terminal.
///
/// Widths are display widths: "José García" counts 11 columns (grapheme clusters, not bytes or
/// scalars) and "東京" counts 4 (East Asian wide characters take two cells), so columns line up
/// whatever the names are written in. Escapes wrap padded cells, so they never shift a column.
/// Cells and titles are made terminal-safe (``TerminalSafeText``) before anything is measured:
/// a name with ESC or CR in it shows as `\e` and `\r`, and the columns fit that.
struct TextTable: Sendable {
    /// A column's title and whether its cells are dimmed (for ids that matter less than names).
    struct Column: Sendable {
        let title: String
        var dimmed = false
    }

    let columns: [Column]
    let rows: [[String]]

    /// - Parameters:
    ///   - columns: the titles, in order.
    ///   - rows: the cells, as received; escaped here.
    init(columns: [Column], rows: [[String]]) {
        self.columns = columns.map { Column(title: $0.title.terminalSafe, dimmed: $0.dimmed) }
        self.rows = rows.map { $0.map(\.terminalSafe) }
    }

    /// The header row and one line per row, each cell padded to its column's widest; no line
    /// ends in spaces. Rows shorter than the header get empty cells.
    func lines(style: TextStyle) -> [String] {
        let widths = columns.indices.map { index in
            ([columns[index].title] + rows.map { cell($0, index) }).map(Self.displayWidth).max() ?? 0
        }
        func line(_ cells: [String], styling: (Int, String) -> String) -> String {
            // Empty cells at the end are left out and the last cell is not padded: no trailing spaces.
            guard let last = cells.lastIndex(where: { !$0.isEmpty }) else { return "" }
            return cells[...last].indices.map { index in
                let text = index == last ? cells[index] : Self.pad(cells[index], to: widths[index])
                return styling(index, text)
            }.joined(separator: "  ")
        }
        let header = line(columns.map(\.title)) { _, text in style.bold(text) }
        return [header] + rows.map { row in
            line(columns.indices.map { cell(row, $0) }) { index, text in
                columns[index].dimmed ? style.dim(text) : text
            }
        }
    }

    private func cell(_ row: [String], _ index: Int) -> String {
        index < row.count ? row[index] : ""
    }

    private static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - displayWidth(text)))
    }

    /// How many terminal columns `text` takes: one per grapheme cluster (a combining mark joins
    /// the character before it), two for East Asian wide and fullwidth characters and emoji, none
    /// for control and format characters (a zero-width space, a joiner) or a combining mark with
    /// nothing before it to combine with, as `wcwidth` counts them.
    static func displayWidth(_ text: String) -> Int {
        text.reduce(0) { total, character in
            guard let first = character.unicodeScalars.first else { return total }
            switch first.properties.generalCategory {
            case .control, .format, .nonspacingMark, .enclosingMark: return total
            default: break
            }
            if character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation }) || isWide(first) {
                return total + 2
            }
            return total + 1
        }
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges, after Unicode's EastAsianWidth.txt.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
