import CNCurses
import Foundation
import MultiAPIDemoKit

/// The only code that knows ncurses: sets the terminal up and restores it, maps keys to `Key`,
/// copies a `Canvas` to the screen.
@MainActor
final class Terminal {
    private let colors: Bool

    /// Nil when the terminal cannot be used (unknown TERM, not a terminal).
    init?(colors wanted: Bool) {
        setlocale(LC_ALL, "")
        guard isatty(STDIN_FILENO) == 1, demo_newterm() != nil else { return nil }
        atexit { _ = endwin() }
        cbreak()
        noecho()
        nonl()
        keypad(demo_stdscr(), true)
        wtimeout(demo_stdscr(), 50)
        set_escdelay(25)
        curs_set(0)
        mousemask(demo_mouse_mask(), nil)
        mouseinterval(0)
        colors = wanted && has_colors()
        if colors {
            start_color()
            use_default_colors()
            init_pair(1, Int16(COLOR_WHITE), Int16(COLOR_BLUE))
            init_pair(2, Int16(COLOR_BLACK), Int16(COLOR_CYAN))
            init_pair(3, Int16(COLOR_CYAN), -1)
            init_pair(4, Int16(COLOR_RED), -1)
            init_pair(5, Int16(COLOR_GREEN), -1)
            init_pair(6, Int16(COLOR_YELLOW), -1)
        }
    }

    var size: DemoModel.Size { DemoModel.Size(columns: Int(demo_cols()), rows: Int(demo_rows())) }

    func close() {
        endwin()
    }

    /// The next key, or nil after 50 ms without one.
    func readKey() -> Key? {
        var code: Int32 = 0
        let kind = demo_get_wch(&code)
        if kind == ERR { return nil }
        if kind == demo_key_code_yes() {
            switch code {
            case KEY_RESIZE: return .resize(columns: Int(demo_cols()), rows: Int(demo_rows()))
            case KEY_BTAB: return .backTab
            case KEY_UP: return .up
            case KEY_DOWN: return .down
            case KEY_LEFT: return .left
            case KEY_RIGHT: return .right
            case KEY_PPAGE: return .pageUp
            case KEY_NPAGE: return .pageDown
            case KEY_BACKSPACE, KEY_DC: return .backspace
            case KEY_ENTER: return .enter
            case KEY_MOUSE:
                var event = MEVENT()
                guard getmouse(&event) == OK, demo_is_click(event.bstate) != 0 else { return nil }
                return .click(x: Int(event.x), y: Int(event.y))
            default: return nil
            }
        }
        switch code {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 3, 4: return .interrupt
        default:
            guard code >= 32, let scalar = Unicode.Scalar(UInt32(code)) else { return nil }
            return .character(Character(scalar))
        }
    }

    func draw(_ canvas: Canvas) {
        erase()
        for y in 0..<canvas.rows {
            // Never write the last cell of the screen: curses would scroll.
            let width = y == canvas.rows - 1 ? canvas.columns - 1 : canvas.columns
            var x = 0
            while x < width {
                let style = canvas.style(x: x, y: y)
                var run = ""
                var end = x
                while end < width, canvas.style(x: end, y: y) == style {
                    run.append(canvas.character(x: end, y: y))
                    end += 1
                }
                let attributes = attributes(for: style)
                attrset(attributes)
                _ = mvaddstr(Int32(y), Int32(x), run)
                x = end
            }
        }
        attrset(0)
        refresh()
    }

    private func attributes(for style: Canvas.Style) -> Int32 {
        let bold = demo_attr_bold()
        let reverse = demo_attr_reverse()
        let dim = demo_attr_dim()
        func pair(_ number: Int32, _ fallback: Int32) -> Int32 { colors ? demo_color_pair(number) : fallback }
        switch style {
        case .normal, .dialog: return 0
        case .title: return pair(1, reverse) | bold
        case .field: return demo_attr_underline()
        case .focusedField: return reverse
        case .button: return bold
        case .focusedButton: return pair(2, reverse) | bold
        case .dim: return dim
        case .heading: return pair(3, bold) | bold
        case .error: return pair(4, bold) | bold
        case .success: return pair(5, bold)
        case .mailbox: return pair(6, bold)
        }
    }
}
