/// Shell completions for bash, zsh and fish, written from the option table (`termmap help completions
/// SHELL`): commands, options, their values (`choices`), and files by extension where a value or an
/// operand is a file. One table, three shells' syntaxes.
enum Completions {
    enum Shell: String, CaseIterable {
        case bash, zsh, fish
    }

    /// The user's own files, by extension: what termmap reads itself and the common ones ogr2ogr reads.
    static let userFileExtensions = [
        "geojson", "json", "geojsonl", "geojsons", "ndjson", "geojsonseq", "gpx", "kml", "csv", "tsv",
        "shp", "gpkg", "fgb", "gml", "kmz", "sqlite",
    ]

    /// Each command as the scripts name it, with its options and the extensions of its operands
    /// (nil: its operands are not files).
    static let commands: [(key: String, command: CommandName, operands: [String]?)] = [
        ("viewer", .viewer, userFileExtensions), ("render", .render, userFileExtensions), ("config", .config, nil),
        ("route", .route, nil),
        ("data-import-osm", .importOSM, ["pbf"]), ("data-import-gshhg", .importGSHHG, []),
        ("data-import-raster", .importRaster, ["tif", "tiff", "vrt", "jp2", "png", "jpg"]),
        ("data-import-dem", .importDEM, ["tif", "tiff", "vrt", "hgt", "asc", "dem", "img"]), ("data-list", .list, nil),
        ("data-remove", .remove, nil), ("data-info", .info, ["pmtiles", "mbtiles"]), ("data-get", .get, nil),
        ("data-pack", .pack, nil),
    ]

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: return bash
        case .zsh: return zsh
        case .fish: return fish
        }
    }

    /// The options a command key takes (the viewer's include `--help`, `--version` and `--about`).
    static func options(_ key: String, _ command: CommandName) -> [OptionSpec] {
        OptionTable.options(of: command) + (key == "viewer" ? OptionTable.options(of: .general) : [])
    }

    /// `*.(a|b)` for zsh, `a|b` for bash's `_filedir`.
    static func alternatives(_ extensions: [String]) -> String { extensions.joined(separator: "|") }

    // MARK: bash

    static var bash: String {
        var valueCases: [String] = []
        for option in OptionTable.all where option.value != nil {
            var actions: [String] = []
            if !option.choices.isEmpty {
                actions.append("COMPREPLY=($(compgen -W \"\(option.choices.joined(separator: " "))\" -- \"$cur\"))")
            }
            if option.directoryValue {
                actions.append("_termmap_filedir -d")
            } else if let extensions = option.fileExtensions {
                actions.append(
                    extensions.isEmpty ? "_termmap_filedir" : "_termmap_filedir '\(alternatives(extensions))'")
            }
            valueCases.append(
                "        --\(option.name)) \(actions.joined(separator: "; "))\(actions.isEmpty ? "" : "; ")return ;;")
        }
        var commandCases: [String] = []
        for c in commands {
            let names = options(c.key, c.command).map { "--" + $0.name }.joined(separator: " ")
            let files =
                c.operands.map { $0.isEmpty ? "_termmap_filedir" : "_termmap_filedir '\(alternatives($0))'" } ?? ":"
            commandCases.append("        \(c.key)) opts=\"\(names)\"; files=\"\(files)\" ;;")
        }
        return """
            # bash completion for termmap (written by termmap help completions bash)
            _termmap_filedir() {
                if declare -F _filedir >/dev/null; then _filedir "$@"; return; fi
                if [[ $1 == -d ]]; then COMPREPLY+=($(compgen -d -- "$cur")); else COMPREPLY+=($(compgen -f -- "$cur")); fi
            }

            _termmap() {
                local cur prev words cword
                if declare -F _init_completion >/dev/null; then
                    _init_completion -s || return
                else
                    words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}
                fi
                case $prev in
            \(valueCases.joined(separator: "\n"))
                esac
                local key=viewer i first="" second=""
                for ((i = 1; i < cword; i++)); do
                    [[ ${words[i]} == -* ]] && continue
                    if [[ -z $first ]]; then first=${words[i]}; else second=${words[i]}; break; fi
                done
                case $first in
                    render|config|route) key=$first ;;
                    help)
                        if [[ -z $second ]]; then COMPREPLY=($(compgen -W "\(OptionTable.helpWords.joined(separator: " "))" -- "$cur"))
                        elif [[ $second == completions ]]; then COMPREPLY=($(compgen -W "\(Shell.allCases.map(\.rawValue).joined(separator: " "))" -- "$cur")); fi
                        return ;;
                    data)
                        if [[ -z $second ]]; then COMPREPLY=($(compgen -W "\(OptionTable.dataWords.joined(separator: " "))" -- "$cur")); return; fi
                        key=data-$second ;;
                esac
                local opts="" files=":"
                case $key in
            \(commandCases.joined(separator: "\n"))
                esac
                if [[ $cur == -* ]]; then
                    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
                    return
                fi
                if [[ $key == viewer && -z $first ]]; then
                    COMPREPLY=($(compgen -W "\(OptionTable.commandWords.joined(separator: " "))" -- "$cur"))
                fi
                eval "$files"
            }
            complete -F _termmap termmap

            """
    }

    // MARK: zsh

    /// Text inside a zsh `_arguments` spec's single quotes and brackets.
    static func zshHelp(_ text: String) -> String {
        text.replacing("'", with: "'\\''").replacing("[", with: "(").replacing("]", with: ")").replacing(
            ":", with: "\\:")
    }

    static func zshSpec(_ option: OptionSpec) -> String {
        let help = zshHelp(option.help)
        guard let value = option.value else { return "'--\(option.name)[\(help)]'" }
        var action = ""
        if !option.choices.isEmpty && option.fileExtensions == nil {
            action = "(\(option.choices.joined(separator: " ")))"
        } else if option.directoryValue {
            action = "_files -/"
        } else if let extensions = option.fileExtensions {
            let files = extensions.isEmpty ? "_files" : "_files -g \"*.(\(alternatives(extensions)))\""
            action = option.choices.isEmpty ? files : "{compadd \(option.choices.joined(separator: " ")); \(files)}"
        }
        let valueName = zshHelp(value)
        return "'\(option.repeatable ? "*" : "")--\(option.name)=[\(help)]:\(valueName):\(action)'"
    }

    static var zsh: String {
        var cases: [String] = []
        for c in commands {
            var specs = options(c.key, c.command).map(zshSpec)
            if let operands = c.operands {
                specs.append(
                    operands.isEmpty ? "'*:file:_files'" : "'*:file:_files -g \"*.(\(alternatives(operands)))\"'")
            }
            cases.append(
                "        \(c.key)) _arguments -S \\\n            " + specs.joined(separator: " \\\n            ")
                    + " ;;")
        }
        return """
            #compdef termmap
            # zsh completion for termmap (written by termmap help completions zsh)

            _termmap() {
                local key=viewer
                if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then
                    _alternative 'commands:command:(\(OptionTable.commandWords.joined(separator: " ")))' \\
                        'files:file:_files -g "*.(\(alternatives(userFileExtensions)))"'
                    return
                fi
                case $words[2] in
                    render|config|route) key=$words[2]; shift words; (( CURRENT-- )) ;;
                    help)
                        if (( CURRENT == 3 )); then compadd \(OptionTable.helpWords.joined(separator: " "))
                        elif [[ $words[3] == completions ]]; then compadd \(Shell.allCases.map(\.rawValue).joined(separator: " ")); fi
                        return ;;
                    data)
                        if (( CURRENT == 3 )); then compadd \(OptionTable.dataWords.joined(separator: " ")); return; fi
                        key=data-$words[3]; shift 2 words; (( CURRENT -= 2 )) ;;
                esac
                case $key in
            \(cases.joined(separator: "\n"))
                esac
            }

            if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
                _termmap "$@"
            else
                compdef _termmap termmap
            fi

            """
    }

    // MARK: fish

    /// A single-quoted fish word.
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }

    static var fish: String {
        var lines: [String] = []
        for option in OptionTable.all {
            let keys = commands.filter { options($0.key, $0.command).contains(option) }.map(\.key)
            guard !keys.isEmpty else { continue }
            var line = "complete -c termmap -n '__termmap_is \(keys.joined(separator: " "))' -l \(option.name)"
            if option.value != nil {
                var words = option.choices
                if option.directoryValue { words.append("(__termmap_files /)") }
                if let extensions = option.fileExtensions {
                    words.append("(__termmap_files \(extensions.joined(separator: " ")))")
                }
                line += " -x" + (words.isEmpty ? "" : " -k -a " + fishQuoted(words.joined(separator: " ")))
            }
            line += " -d " + fishQuoted(String(option.help.prefix(80)))
            lines.append(line)
        }
        for c in commands {
            guard let operands = c.operands else { continue }
            lines.append(
                "complete -c termmap -n '__termmap_is \(c.key)' -k -a '(__termmap_files \(operands.joined(separator: " ")))'"
            )
        }
        return """
            # fish completion for termmap (written by termmap help completions fish)

            # The command being completed: viewer, render, config, help, data, or data-NAME.
            function __termmap_command
                set -l tokens (commandline -opc)
                set -e tokens[1]
                set -l first ""
                for t in $tokens
                    string match -q -- '-*' $t; and continue
                    if test -z "$first"
                        set first $t
                        contains -- $t \(OptionTable.commandWords.joined(separator: " ")); or break
                    else
                        test "$first" = data; and echo data-$t; or echo $first
                        return
                    end
                end
                if contains -- "$first" \(OptionTable.commandWords.joined(separator: " "))
                    echo $first
                else
                    echo viewer
                end
            end

            function __termmap_is
                contains -- (__termmap_command) $argv
            end

            # True before any word that is not an option.
            function __termmap_first_word
                for t in (commandline -opc)[2..-1]
                    string match -q -- '-*' $t; or return 1
                end
            end

            # Folders, and the files with one of the extensions given ('/': folders only; none: every file).
            function __termmap_files
                set -l token (commandline -ct)
                for f in $token*
                    if test -d $f
                        echo $f/
                    else if test (count $argv) -eq 0
                        echo $f
                    else
                        for e in $argv
                            string match -qi -- "*.$e" $f; and echo $f
                        end
                    end
                end
            end

            complete -c termmap -f
            complete -c termmap -n __termmap_first_word -a '\(OptionTable.commandWords.joined(separator: " "))'
            complete -c termmap -n '__termmap_is data' -a '\(OptionTable.dataWords.joined(separator: " "))'
            complete -c termmap -n '__termmap_is help' -a '\(OptionTable.helpWords.joined(separator: " "))'
            \(lines.joined(separator: "\n"))

            """
    }
}
