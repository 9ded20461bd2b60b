import ArgumentParser
import Foundation
@testable import RiderCLI
import RiderKit
import Testing

@Suite("CLI TextTable")
struct TextTableTests {
    private let columns = [TextTable.Column(title: "ID", dimmed: true), TextTable.Column(title: "NAME"),
                           TextTable.Column(title: "TYPE")]

    @Test("columns are padded by display width, so accented names line up with plain ones")
    func accentedNamesAlign() {
        // "José García" precomposed, and "Zoë" with a combining diaeresis: both count by grapheme.
        let rows = [["u_1", "José García", "mentor"], ["u_22", "Zoe\u{0308} Li", "learner"], ["u_3", "Bob", "-"]]
        let lines = TextTable(columns: columns, rows: rows).lines(style: .plain)
        #expect(lines == [
            "ID    NAME         TYPE",
            "u_1   José García  mentor",
            "u_22  Zoë Li       learner",
            "u_3   Bob          -",
        ])
    }

    @Test("East Asian wide characters and emoji count two columns, control characters none")
    func wideCharactersCountTwo() {
        #expect(TextTable.displayWidth("José") == 4)
        #expect(TextTable.displayWidth("東京") == 4)
        #expect(TextTable.displayWidth("🚴") == 2)
        #expect(TextTable.displayWidth("a\u{1B}") == 1)
        // Combining marks add nothing, whether they join a letter or stand first; nor do
        // zero-width spaces and joiners (Python's wcwidth 0.7 gives the same figures).
        #expect(TextTable.displayWidth("Zoe\u{0308}") == 3)
        #expect(TextTable.displayWidth("\u{0301}a") == 1)
        #expect(TextTable.displayWidth("a\u{200B}b") == 2)
        #expect(TextTable.displayWidth("ＡＢ") == 4, "fullwidth Latin: two each")
        let lines = TextTable(columns: columns, rows: [["u_1", "東京 太郎", "x"], ["u_2", "Ann", "y"]]).lines(style: .plain)
        #expect(lines[1] == "u_1  東京 太郎  x")
        #expect(lines[2] == "u_2  Ann        y")
    }

    @Test("no line ends in spaces: the last cell is not padded and empty trailing cells are left out")
    func noTrailingSpaces() {
        let lines = TextTable(columns: columns, rows: [["u_1", "A long name here", "t"], ["u_2"], ["u_3", "B", ""]])
            .lines(style: .plain)
        #expect(lines == ["ID   NAME              TYPE", "u_1  A long name here  t", "u_2", "u_3  B"])
    }

    @Test("styled: the header is bold and the dimmed column dim; plain: not one escape character")
    func colourOnAndOff() {
        let rows = [["u_1", "José", "mentor"]]
        let styled = TextTable(columns: columns, rows: rows).lines(style: .ansi)
        #expect(styled[0] == "\u{1B}[1mID \u{1B}[0m  \u{1B}[1mNAME\u{1B}[0m  \u{1B}[1mTYPE\u{1B}[0m")
        #expect(styled[1] == "\u{1B}[2mu_1\u{1B}[0m  José  mentor")
        let plain = TextTable(columns: columns, rows: rows).lines(style: .plain)
        #expect(plain.allSatisfy { !$0.contains("\u{1B}") })
        #expect(plain[1] == "u_1  José  mentor")
    }

    @Test("piped, the plain columns are padded by display width too, so wide names line up")
    func pipedColumnsByDisplayWidth() {
        let rows = [["ID", "NAME", "TYPE"], ["u_1", "東京 太郎", "x"], ["u_2", "José", "y"]]
        let lines = HumanFormat.columns(rows)
        let typeColumn = zip(lines, rows).map { line, row in
            TextTable.displayWidth(line) - TextTable.displayWidth(row[2])
        }
        #expect(Set(typeColumn).count == 1, "the last column starts at the same place on each line: \(lines)")
    }
}
