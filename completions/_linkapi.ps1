
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'linkapi' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'linkapi'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'linkapi' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Log in to a server, see where keys come from, log out')
            [CompletionResult]::new('chain', 'chain', [CompletionResultType]::ParameterValue, 'Create, list, inspect, edit and delete short links')
            [CompletionResult]::new('group', 'group', [CompletionResultType]::ParameterValue, 'Create and list groups of chains')
            [CompletionResult]::new('domain', 'domain', [CompletionResultType]::ParameterValue, 'List the domains you may create chains on')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Show visits: a chain''s totals and daily trend, where they came from, or your top chains')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Bring your links over from chhoto-url, Kutt, YOURLS, Shlink, Bitly or a linkapi export')
            [CompletionResult]::new('wx', 'wx', [CompletionResultType]::ParameterValue, 'Messaging-app chains: QR codes that rotate, account IDs, mini-programs, shops')
            [CompletionResult]::new('card', 'card', [CompletionResultType]::ParameterValue, 'Card chains: messaging-app chains in the card namespace')
            [CompletionResult]::new('workchat', 'workchat', [CompletionResultType]::ParameterValue, 'Work-chat chains, your assembly list and customer-transfer results')
            [CompletionResult]::new('conversion', 'conversion', [CompletionResultType]::ParameterValue, 'Report ad conversions for a chain and list what was recorded')
            [CompletionResult]::new('template', 'template', [CompletionResultType]::ParameterValue, 'List the jump-page templates you may use')
            [CompletionResult]::new('webhook', 'webhook', [CompletionResultType]::ParameterValue, 'Send events of your writes to your own endpoints, and receive them locally')
            [CompletionResult]::new('upload', 'upload', [CompletionResultType]::ParameterValue, 'Upload images (many at once, with progress bars), list and delete uploads')
            [CompletionResult]::new('admin', 'admin', [CompletionResultType]::ParameterValue, 'Manage users, API keys and domains (needs a key with scope admin)')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Run the server locally (same flags as linkapi-server)')
            [CompletionResult]::new('data', 'data', [CompletionResultType]::ParameterValue, 'Back up, restore, or move to PostgreSQL the data of a local server (same as linkapi-server''s commands)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the manual page, or write every page into a directory')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;auth' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Store an API key for a server, checked against the server first')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show each profile''s server, where its key comes from, and whether the key works')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Forget the stored key of the profile (the key itself stays valid on the server)')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Print the key the current profile would use')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;auth;login' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--with-key', '--with-key', [CompletionResultType]::ParameterName, 'Read the key from standard input')
            [CompletionResult]::new('--insecure-storage', '--insecure-storage', [CompletionResultType]::ParameterName, 'Store the key in credentials.toml (mode 0600) instead of the OS keyring')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;auth;status' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--show-key', '--show-key', [CompletionResultType]::ParameterName, 'Show keys in full instead of masked')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;auth;logout' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;auth;token' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;auth;help' {
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Store an API key for a server, checked against the server first')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show each profile''s server, where its key comes from, and whether the key works')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Forget the stored key of the profile (the key itself stays valid on the server)')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Print the key the current profile would use')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;auth;help;login' {
            break
        }
        'linkapi;auth;help;status' {
            break
        }
        'linkapi;auth;help;logout' {
            break
        }
        'linkapi;auth;help;token' {
            break
        }
        'linkapi;auth;help;help' {
            break
        }
        'linkapi;chain' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a short link')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Create many chains from CSV or JSON lines, one chain per line')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write all your short links, with what a re-import needs, as JSON lines or CSV')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your short links, newest first')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show one chain')
            [CompletionResult]::new('qr', 'qr', [CompletionResultType]::ParameterValue, 'Show a chain''s QR code in the terminal, or write it as PNG or SVG')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change a chain''s title, destination, expiry, rules, redirect status, start, visit limit or preview')
            [CompletionResult]::new('archive', 'archive', [CompletionResultType]::ParameterValue, 'Archive a chain: it still redirects, and `chain list` leaves it out')
            [CompletionResult]::new('unarchive', 'unarchive', [CompletionResultType]::ParameterValue, 'Bring an archived chain back to `chain list`')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete chains (their codes are never reused)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;chain;create' {
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'Label')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Custom code instead of a random one')
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name [default: the server''s default domain]')
            [CompletionResult]::new('--group', '--group', [CompletionResultType]::ParameterName, 'Group id')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds [default: never]')
            [CompletionResult]::new('--rule', '--rule', [CompletionResultType]::ParameterName, 'A redirect rule, CONDITION[,CONDITION...] => URL, where a condition is device=KIND, country=CC, language=LL or query.NAME=VALUE; repeat for more, first match wins')
            [CompletionResult]::new('--rules-file', '--rules-file', [CompletionResultType]::ParameterName, 'Redirect rules as a JSON array of {device, country, language, query, target_url} (- reads standard input)')
            [CompletionResult]::new('--redirect-status', '--redirect-status', [CompletionResultType]::ParameterName, 'The status its redirects answer with: 301, 302, 307 or 308 (0: the server''s default)')
            [CompletionResult]::new('--valid-since', '--valid-since', [CompletionResultType]::ParameterName, 'Start: before it, the link answers as an expired one ("YYYY-MM-DD HH:MM:SS" UTC, RFC 3339, or Unix seconds; 0 none)')
            [CompletionResult]::new('--max-visits', '--max-visits', [CompletionResultType]::ParameterName, 'People''s visits it serves in all, exactly; past them it answers as an expired link (bots take none; 0 unlimited)')
            [CompletionResult]::new('--preview-title', '--preview-title', [CompletionResultType]::ParameterName, 'The title of the card link previews (chat apps, social sites) show; everyone else is redirected ("" removes it)')
            [CompletionResult]::new('--preview-description', '--preview-description', [CompletionResultType]::ParameterName, 'The preview card''s text ("" removes it)')
            [CompletionResult]::new('--preview-image', '--preview-image', [CompletionResultType]::ParameterName, 'The preview card''s image, an http(s) URL ("" removes it)')
            [CompletionResult]::new('--idempotency-key', '--idempotency-key', [CompletionResultType]::ParameterName, 'The request''s Idempotency-Key (1 to 255 printable ASCII characters) [default: a new random one]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;chain;import' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Input format [default: from the file extension, else by the first character]')
            [CompletionResult]::new('--idempotency-key', '--idempotency-key', [CompletionResultType]::ParameterName, 'Prefix of the batches'' Idempotency-Keys, which end in /N for the Nth batch [default: a digest of each batch''s lines]')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print each line''s result as a JSON object')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;chain;export' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'File to write [default: standard output]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'File to write [default: standard output]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Format [default: from the --output extension, else jsonl]')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;chain;list' {
            [CompletionResult]::new('--page', '--page', [CompletionResultType]::ParameterName, 'Page to show')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Chains per page (1 to 100) [default: 20; with --all, 100]')
            [CompletionResult]::new('--group', '--group', [CompletionResultType]::ParameterName, 'Only chains in this group')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only chains whose title or code contains this')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'Only chains whose title or code contains this')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every page')
            [CompletionResult]::new('--archived', '--archived', [CompletionResultType]::ParameterName, 'Only archived chains (archived chains are otherwise left out)')
            [CompletionResult]::new('--include-archived', '--include-archived', [CompletionResultType]::ParameterName, 'Archived chains too')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;chain;info' {
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name, when you have the code on several domains')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Take CHAIN as a code even when it is all digits')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;chain;qr' {
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name, when you have the code on several domains')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the image to this file')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the image to this file')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Image format [default: from the --output extension, else png]')
            [CompletionResult]::new('--size', '--size', [CompletionResultType]::ParameterName, 'Side of the image in pixels (64 to 2048)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Take CHAIN as a code even when it is all digits')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;chain;edit' {
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name, when you have the code on several domains')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'New label')
            [CompletionResult]::new('--target-url', '--target-url', [CompletionResultType]::ParameterName, 'New destination')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'New expiry (as for create; 0 is never)')
            [CompletionResult]::new('--rule', '--rule', [CompletionResultType]::ParameterName, 'A redirect rule, CONDITION[,CONDITION...] => URL, where a condition is device=KIND, country=CC, language=LL or query.NAME=VALUE; repeat for more, first match wins')
            [CompletionResult]::new('--rules-file', '--rules-file', [CompletionResultType]::ParameterName, 'Redirect rules as a JSON array of {device, country, language, query, target_url} (- reads standard input)')
            [CompletionResult]::new('--redirect-status', '--redirect-status', [CompletionResultType]::ParameterName, 'The status its redirects answer with: 301, 302, 307 or 308 (0: the server''s default)')
            [CompletionResult]::new('--valid-since', '--valid-since', [CompletionResultType]::ParameterName, 'Start: before it, the link answers as an expired one ("YYYY-MM-DD HH:MM:SS" UTC, RFC 3339, or Unix seconds; 0 none)')
            [CompletionResult]::new('--max-visits', '--max-visits', [CompletionResultType]::ParameterName, 'People''s visits it serves in all, exactly; past them it answers as an expired link (bots take none; 0 unlimited)')
            [CompletionResult]::new('--preview-title', '--preview-title', [CompletionResultType]::ParameterName, 'The title of the card link previews (chat apps, social sites) show; everyone else is redirected ("" removes it)')
            [CompletionResult]::new('--preview-description', '--preview-description', [CompletionResultType]::ParameterName, 'The preview card''s text ("" removes it)')
            [CompletionResult]::new('--preview-image', '--preview-image', [CompletionResultType]::ParameterName, 'The preview card''s image, an http(s) URL ("" removes it)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Take CHAIN as a code even when it is all digits')
            [CompletionResult]::new('--clear-rules', '--clear-rules', [CompletionResultType]::ParameterName, 'Remove all the chain''s redirect rules')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;chain;archive' {
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name, when you have the code on several domains')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Take CHAIN as a code even when it is all digits')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;chain;unarchive' {
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name, when you have the code on several domains')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Take CHAIN as a code even when it is all digits')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;chain;delete' {
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name, when you have the codes on several domains')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Take every CHAIN as a code')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;chain;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a short link')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Create many chains from CSV or JSON lines, one chain per line')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write all your short links, with what a re-import needs, as JSON lines or CSV')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your short links, newest first')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show one chain')
            [CompletionResult]::new('qr', 'qr', [CompletionResultType]::ParameterValue, 'Show a chain''s QR code in the terminal, or write it as PNG or SVG')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change a chain''s title, destination, expiry, rules, redirect status, start, visit limit or preview')
            [CompletionResult]::new('archive', 'archive', [CompletionResultType]::ParameterValue, 'Archive a chain: it still redirects, and `chain list` leaves it out')
            [CompletionResult]::new('unarchive', 'unarchive', [CompletionResultType]::ParameterValue, 'Bring an archived chain back to `chain list`')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete chains (their codes are never reused)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;chain;help;create' {
            break
        }
        'linkapi;chain;help;import' {
            break
        }
        'linkapi;chain;help;export' {
            break
        }
        'linkapi;chain;help;list' {
            break
        }
        'linkapi;chain;help;info' {
            break
        }
        'linkapi;chain;help;qr' {
            break
        }
        'linkapi;chain;help;edit' {
            break
        }
        'linkapi;chain;help;archive' {
            break
        }
        'linkapi;chain;help;unarchive' {
            break
        }
        'linkapi;chain;help;delete' {
            break
        }
        'linkapi;chain;help;help' {
            break
        }
        'linkapi;group' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a group')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your groups')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show one of your groups: its name, kind and live chains')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;group;create' {
            [CompletionResult]::new('--chain-type', '--chain-type', [CompletionResultType]::ParameterName, 'Kind of chains it holds: 1 short, 2 external, 3 work-chat, 4 card')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;group;list' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;group;info' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;group;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a group')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your groups')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show one of your groups: its name, kind and live chains')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;group;help;create' {
            break
        }
        'linkapi;group;help;list' {
            break
        }
        'linkapi;group;help;info' {
            break
        }
        'linkapi;group;help;help' {
            break
        }
        'linkapi;domain' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the domains you may use')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;domain;list' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;domain;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the domains you may use')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;domain;help;list' {
            break
        }
        'linkapi;domain;help;help' {
            break
        }
        'linkapi;stats' {
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name, when you have the code on several domains')
            [CompletionResult]::new('--days', '--days', [CompletionResultType]::ParameterName, 'Days counted, today included (1 to 365)')
            [CompletionResult]::new('--by', '--by', [CompletionResultType]::ParameterName, 'Break the chain''s visits down by this')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Values (with --by) or chains (without a CHAIN) to list, most visits first (1 to 100)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Take CHAIN as a code even when it is all digits')
            [CompletionResult]::new('--orphans', '--orphans', [CompletionResultType]::ParameterName, 'Requests of every domain that reached no chain (the base URL, unknown codes, other paths), per domain and kind; needs an admin key')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;import' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The shortener the files come from')
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Put every link on this domain of yours (host name) instead of the peer''s')
            [CompletionResult]::new('--map-domain', '--map-domain', [CompletionResultType]::ParameterName, 'Put the links the peer had on FROM on your domain TO instead (repeatable)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Check every link and report what an import would do, importing nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print every link''s result as a JSON object')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;wx' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a messaging-app chain')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your messaging-app chains, newest first')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show one chain and its channels')
            [CompletionResult]::new('qr', 'qr', [CompletionResultType]::ParameterValue, 'Show a chain''s QR code in the terminal, or write it as PNG or SVG')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change a chain''s fields and channels')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete messaging-app chains')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;wx;create' {
            [CompletionResult]::new('--from-file', '--from-file', [CompletionResultType]::ParameterName, 'Full input as JSON (the body of POST /wx-chains, channel_list included), or - for standard input; flags override its fields')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'Label')
            [CompletionResult]::new('--sub-type', '--sub-type', [CompletionResultType]::ParameterName, 'Where the chain leads [default on create: scan-qr]')
            [CompletionResult]::new('--qr-url', '--qr-url', [CompletionResultType]::ParameterName, 'The chain''s own QR image URL (scan-qr)')
            [CompletionResult]::new('--wx-id', '--wx-id', [CompletionResultType]::ParameterName, 'Account ID (account)')
            [CompletionResult]::new('--mini-appid', '--mini-appid', [CompletionResultType]::ParameterName, 'Mini-program app id (mini-program)')
            [CompletionResult]::new('--mini-path', '--mini-path', [CompletionResultType]::ParameterName, 'Mini-program page path (mini-program)')
            [CompletionResult]::new('--shop-appid', '--shop-appid', [CompletionResultType]::ParameterName, 'Shop app id (shop)')
            [CompletionResult]::new('--shop-path', '--shop-path', [CompletionResultType]::ParameterName, 'Shop page path (shop)')
            [CompletionResult]::new('--qwhk-url', '--qwhk-url', [CompletionResultType]::ParameterName, 'Work-chat acquisition URL (workchat-url)')
            [CompletionResult]::new('--avatar', '--avatar', [CompletionResultType]::ParameterName, 'Avatar image URL')
            [CompletionResult]::new('--guide-text', '--guide-text', [CompletionResultType]::ParameterName, 'A line guiding the visitor')
            [CompletionResult]::new('--desc', '--desc', [CompletionResultType]::ParameterName, 'Longer text on the page')
            [CompletionResult]::new('--sub-title', '--sub-title', [CompletionResultType]::ParameterName, 'Line under the heading (at most 20 characters; shown with --show-type small)')
            [CompletionResult]::new('--show-type', '--show-type', [CompletionResultType]::ParameterName, 'Image layout')
            [CompletionResult]::new('--template', '--template', [CompletionResultType]::ParameterName, 'Jump-page template id (see linkapi template list)')
            [CompletionResult]::new('--scan-tips', '--scan-tips', [CompletionResultType]::ParameterName, 'Show a hint on how to scan (0 or 1)')
            [CompletionResult]::new('--rotation', '--rotation', [CompletionResultType]::ParameterName, 'How visits pick a channel')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'What channel limits cap')
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'Add a channel with this QR image URL (repeatable; sort order as given). Use --from-file for limits, ratios and expiry')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never')
            [CompletionResult]::new('--group', '--group', [CompletionResultType]::ParameterName, 'Group id (a group of chain type 2)')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Custom code instead of a random one')
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name [default: the server''s default domain]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--direct-jump', '--direct-jump', [CompletionResultType]::ParameterName, 'Jump straight to the destination instead of showing the page')
            [CompletionResult]::new('--page', '--page', [CompletionResultType]::ParameterName, 'Show the page (undoes --direct-jump on edit)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;wx;list' {
            [CompletionResult]::new('--page', '--page', [CompletionResultType]::ParameterName, 'Page to show')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Chains per page (1 to 100) [default: 20; with --all, 100]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Only chains whose title or code contains this')
            [CompletionResult]::new('--query', '--query', [CompletionResultType]::ParameterName, 'Only chains whose title or code contains this')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every page')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;wx;info' {
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name, when you have the code on several domains')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Take CHAIN as a code even when it is all digits')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;wx;qr' {
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name, when you have the code on several domains')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the image to this file')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the image to this file')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Image format [default: from the --output extension, else png]')
            [CompletionResult]::new('--size', '--size', [CompletionResultType]::ParameterName, 'Side of the image in pixels (64 to 2048)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Take CHAIN as a code even when it is all digits')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;wx;edit' {
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name, when you have the code on several domains')
            [CompletionResult]::new('--from-file', '--from-file', [CompletionResultType]::ParameterName, 'Full input as JSON (the body of POST /wx-chains, channel_list included), or - for standard input; flags override its fields')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'Label')
            [CompletionResult]::new('--sub-type', '--sub-type', [CompletionResultType]::ParameterName, 'Where the chain leads [default on create: scan-qr]')
            [CompletionResult]::new('--qr-url', '--qr-url', [CompletionResultType]::ParameterName, 'The chain''s own QR image URL (scan-qr)')
            [CompletionResult]::new('--wx-id', '--wx-id', [CompletionResultType]::ParameterName, 'Account ID (account)')
            [CompletionResult]::new('--mini-appid', '--mini-appid', [CompletionResultType]::ParameterName, 'Mini-program app id (mini-program)')
            [CompletionResult]::new('--mini-path', '--mini-path', [CompletionResultType]::ParameterName, 'Mini-program page path (mini-program)')
            [CompletionResult]::new('--shop-appid', '--shop-appid', [CompletionResultType]::ParameterName, 'Shop app id (shop)')
            [CompletionResult]::new('--shop-path', '--shop-path', [CompletionResultType]::ParameterName, 'Shop page path (shop)')
            [CompletionResult]::new('--qwhk-url', '--qwhk-url', [CompletionResultType]::ParameterName, 'Work-chat acquisition URL (workchat-url)')
            [CompletionResult]::new('--avatar', '--avatar', [CompletionResultType]::ParameterName, 'Avatar image URL')
            [CompletionResult]::new('--guide-text', '--guide-text', [CompletionResultType]::ParameterName, 'A line guiding the visitor')
            [CompletionResult]::new('--desc', '--desc', [CompletionResultType]::ParameterName, 'Longer text on the page')
            [CompletionResult]::new('--sub-title', '--sub-title', [CompletionResultType]::ParameterName, 'Line under the heading (at most 20 characters; shown with --show-type small)')
            [CompletionResult]::new('--show-type', '--show-type', [CompletionResultType]::ParameterName, 'Image layout')
            [CompletionResult]::new('--template', '--template', [CompletionResultType]::ParameterName, 'Jump-page template id (see linkapi template list)')
            [CompletionResult]::new('--scan-tips', '--scan-tips', [CompletionResultType]::ParameterName, 'Show a hint on how to scan (0 or 1)')
            [CompletionResult]::new('--rotation', '--rotation', [CompletionResultType]::ParameterName, 'How visits pick a channel')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'What channel limits cap')
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'Add a channel with this QR image URL (repeatable; sort order as given). Use --from-file for limits, ratios and expiry')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never')
            [CompletionResult]::new('--group', '--group', [CompletionResultType]::ParameterName, 'Group id (a group of chain type 2)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Take CHAIN as a code even when it is all digits')
            [CompletionResult]::new('--direct-jump', '--direct-jump', [CompletionResultType]::ParameterName, 'Jump straight to the destination instead of showing the page')
            [CompletionResult]::new('--page', '--page', [CompletionResultType]::ParameterName, 'Show the page (undoes --direct-jump on edit)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;wx;delete' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Take every CHAIN as a code')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;wx;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a messaging-app chain')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your messaging-app chains, newest first')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show one chain and its channels')
            [CompletionResult]::new('qr', 'qr', [CompletionResultType]::ParameterValue, 'Show a chain''s QR code in the terminal, or write it as PNG or SVG')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change a chain''s fields and channels')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete messaging-app chains')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;wx;help;create' {
            break
        }
        'linkapi;wx;help;list' {
            break
        }
        'linkapi;wx;help;info' {
            break
        }
        'linkapi;wx;help;qr' {
            break
        }
        'linkapi;wx;help;edit' {
            break
        }
        'linkapi;wx;help;delete' {
            break
        }
        'linkapi;wx;help;help' {
            break
        }
        'linkapi;card' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Your card chains (at most 100, newest first)')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a chain in the card namespace (always the generic page: no --template)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;card;list' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;card;create' {
            [CompletionResult]::new('--from-file', '--from-file', [CompletionResultType]::ParameterName, 'Full input as JSON (the body of POST /wx-chains, channel_list included), or - for standard input; flags override its fields')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'Label')
            [CompletionResult]::new('--sub-type', '--sub-type', [CompletionResultType]::ParameterName, 'Where the chain leads [default on create: scan-qr]')
            [CompletionResult]::new('--qr-url', '--qr-url', [CompletionResultType]::ParameterName, 'The chain''s own QR image URL (scan-qr)')
            [CompletionResult]::new('--wx-id', '--wx-id', [CompletionResultType]::ParameterName, 'Account ID (account)')
            [CompletionResult]::new('--mini-appid', '--mini-appid', [CompletionResultType]::ParameterName, 'Mini-program app id (mini-program)')
            [CompletionResult]::new('--mini-path', '--mini-path', [CompletionResultType]::ParameterName, 'Mini-program page path (mini-program)')
            [CompletionResult]::new('--shop-appid', '--shop-appid', [CompletionResultType]::ParameterName, 'Shop app id (shop)')
            [CompletionResult]::new('--shop-path', '--shop-path', [CompletionResultType]::ParameterName, 'Shop page path (shop)')
            [CompletionResult]::new('--qwhk-url', '--qwhk-url', [CompletionResultType]::ParameterName, 'Work-chat acquisition URL (workchat-url)')
            [CompletionResult]::new('--avatar', '--avatar', [CompletionResultType]::ParameterName, 'Avatar image URL')
            [CompletionResult]::new('--guide-text', '--guide-text', [CompletionResultType]::ParameterName, 'A line guiding the visitor')
            [CompletionResult]::new('--desc', '--desc', [CompletionResultType]::ParameterName, 'Longer text on the page')
            [CompletionResult]::new('--sub-title', '--sub-title', [CompletionResultType]::ParameterName, 'Line under the heading (at most 20 characters; shown with --show-type small)')
            [CompletionResult]::new('--show-type', '--show-type', [CompletionResultType]::ParameterName, 'Image layout')
            [CompletionResult]::new('--template', '--template', [CompletionResultType]::ParameterName, 'Jump-page template id (see linkapi template list)')
            [CompletionResult]::new('--scan-tips', '--scan-tips', [CompletionResultType]::ParameterName, 'Show a hint on how to scan (0 or 1)')
            [CompletionResult]::new('--rotation', '--rotation', [CompletionResultType]::ParameterName, 'How visits pick a channel')
            [CompletionResult]::new('--cap', '--cap', [CompletionResultType]::ParameterName, 'What channel limits cap')
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'Add a channel with this QR image URL (repeatable; sort order as given). Use --from-file for limits, ratios and expiry')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never')
            [CompletionResult]::new('--group', '--group', [CompletionResultType]::ParameterName, 'Group id (a group of chain type 2)')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Custom code instead of a random one')
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name [default: the server''s default domain]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--direct-jump', '--direct-jump', [CompletionResultType]::ParameterName, 'Jump straight to the destination instead of showing the page')
            [CompletionResult]::new('--page', '--page', [CompletionResultType]::ParameterName, 'Show the page (undoes --direct-jump on edit)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;card;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Your card chains (at most 100, newest first)')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a chain in the card namespace (always the generic page: no --template)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;card;help;list' {
            break
        }
        'linkapi;card;help;create' {
            break
        }
        'linkapi;card;help;help' {
            break
        }
        'linkapi;workchat' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a work-chat chain')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change a work-chat chain')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show a work-chat chain')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your work-chat chains, newest first')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete work-chat chains')
            [CompletionResult]::new('assemblies', 'assemblies', [CompletionResultType]::ParameterValue, 'Your assembly list: the acquisition links work-chat chains may lead to')
            [CompletionResult]::new('transfers', 'transfers', [CompletionResultType]::ParameterValue, 'Customer-ownership transfer results of a corp')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;workchat;create' {
            [CompletionResult]::new('--customer', '--customer', [CompletionResultType]::ParameterName, 'An entry of your assembly list (wxwork_type 1; see linkapi workchat assemblies)')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'A work-chat URL (wxwork_type 2)')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'Label')
            [CompletionResult]::new('--template', '--template', [CompletionResultType]::ParameterName, 'Jump-page template id')
            [CompletionResult]::new('--group', '--group', [CompletionResultType]::ParameterName, 'Group id (a group of chain type 3)')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Custom code instead of a random one')
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name [default: the server''s default domain]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--direct-jump', '--direct-jump', [CompletionResultType]::ParameterName, 'Jump straight to the destination instead of showing the page')
            [CompletionResult]::new('--page', '--page', [CompletionResultType]::ParameterName, 'Show the page (undoes --direct-jump on edit)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;workchat;edit' {
            [CompletionResult]::new('--channel', '--channel', [CompletionResultType]::ParameterName, 'The channel whose URL changes [default: the chain''s only one]')
            [CompletionResult]::new('--customer', '--customer', [CompletionResultType]::ParameterName, 'An entry of your assembly list (wxwork_type 1; see linkapi workchat assemblies)')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'A work-chat URL (wxwork_type 2)')
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'Label')
            [CompletionResult]::new('--template', '--template', [CompletionResultType]::ParameterName, 'Jump-page template id')
            [CompletionResult]::new('--group', '--group', [CompletionResultType]::ParameterName, 'Group id (a group of chain type 3)')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--direct-jump', '--direct-jump', [CompletionResultType]::ParameterName, 'Jump straight to the destination instead of showing the page')
            [CompletionResult]::new('--page', '--page', [CompletionResultType]::ParameterName, 'Show the page (undoes --direct-jump on edit)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;workchat;info' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;workchat;list' {
            [CompletionResult]::new('--page', '--page', [CompletionResultType]::ParameterName, 'Page to show')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Chains per page (1 to 100) [default: 20]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;workchat;delete' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Take every CHAIN as a code')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;workchat;assemblies' {
            [CompletionResult]::new('--page', '--page', [CompletionResultType]::ParameterName, 'Page to show')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Entries per page (at most 100)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;workchat;transfers' {
            [CompletionResult]::new('--corp', '--corp', [CompletionResultType]::ParameterName, 'The corp id')
            [CompletionResult]::new('--handover', '--handover', [CompletionResultType]::ParameterName, 'Only transfers from this work-chat user')
            [CompletionResult]::new('--takeover', '--takeover', [CompletionResultType]::ParameterName, 'Only transfers to this work-chat user')
            [CompletionResult]::new('--cursor', '--cursor', [CompletionResultType]::ParameterName, 'Start at this cursor (a next_cursor printed before)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Follow the cursor to the end')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;workchat;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a work-chat chain')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change a work-chat chain')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show a work-chat chain')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your work-chat chains, newest first')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete work-chat chains')
            [CompletionResult]::new('assemblies', 'assemblies', [CompletionResultType]::ParameterValue, 'Your assembly list: the acquisition links work-chat chains may lead to')
            [CompletionResult]::new('transfers', 'transfers', [CompletionResultType]::ParameterValue, 'Customer-ownership transfer results of a corp')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;workchat;help;create' {
            break
        }
        'linkapi;workchat;help;edit' {
            break
        }
        'linkapi;workchat;help;info' {
            break
        }
        'linkapi;workchat;help;list' {
            break
        }
        'linkapi;workchat;help;delete' {
            break
        }
        'linkapi;workchat;help;assemblies' {
            break
        }
        'linkapi;workchat;help;transfers' {
            break
        }
        'linkapi;workchat;help;help' {
            break
        }
        'linkapi;conversion' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'Report a conversion; a repeat of the same chain, type and out id is recognised as a duplicate and not recorded twice')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the conversions recorded for a chain, newest first')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;conversion;report' {
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name, when you have the code on several domains')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Business event: lower-case letters, digits and _ (purchase, signup, form, ...)')
            [CompletionResult]::new('--out-id', '--out-id', [CompletionResultType]::ParameterName, 'Your idempotency token (required for purchase)')
            [CompletionResult]::new('--ad-platform', '--ad-platform', [CompletionResultType]::ParameterName, 'Ad platform the conversion came from (a path segment of the API)')
            [CompletionResult]::new('--clickid', '--clickid', [CompletionResultType]::ParameterName, 'Ad-click attribution id')
            [CompletionResult]::new('--external-user', '--external-user', [CompletionResultType]::ParameterName, 'Your own user id of the converting customer')
            [CompletionResult]::new('--value-cents', '--value-cents', [CompletionResultType]::ParameterName, 'Value in cents')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Take CHAIN as a code even when it is all digits')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;conversion;list' {
            [CompletionResult]::new('--domain', '--domain', [CompletionResultType]::ParameterName, 'Domain id or host name, when you have the code on several domains')
            [CompletionResult]::new('--page', '--page', [CompletionResultType]::ParameterName, 'Page to show')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Conversions per page (1 to 100)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--code', '--code', [CompletionResultType]::ParameterName, 'Take CHAIN as a code even when it is all digits')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;conversion;help' {
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'Report a conversion; a repeat of the same chain, type and out id is recognised as a duplicate and not recorded twice')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the conversions recorded for a chain, newest first')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;conversion;help;report' {
            break
        }
        'linkapi;conversion;help;list' {
            break
        }
        'linkapi;conversion;help;help' {
            break
        }
        'linkapi;template' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the templates offered to you, and which your chains use')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;template;list' {
            [CompletionResult]::new('--page', '--page', [CompletionResultType]::ParameterName, 'Page to show')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Templates per page (at most 100)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;template;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the templates offered to you, and which your chains use')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;template;help;list' {
            break
        }
        'linkapi;template;help;help' {
            break
        }
        'linkapi;webhook' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Register an endpoint for events of your writes; prints its signing secret once')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your endpoints')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show one endpoint')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change an endpoint''s URL, events or description, or turn it off and on')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete an endpoint, its pending deliveries and its history')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Send a webhook.test event to an endpoint')
            [CompletionResult]::new('rotate-secret', 'rotate-secret', [CompletionResultType]::ParameterValue, 'Give an endpoint a new signing secret; the old one keeps signing for 24 hours')
            [CompletionResult]::new('deliveries', 'deliveries', [CompletionResultType]::ParameterValue, 'List the attempts to deliver to an endpoint, newest first')
            [CompletionResult]::new('listen', 'listen', [CompletionResultType]::ParameterValue, 'Receive webhooks locally and print them as they arrive, checking their signatures')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;webhook;add' {
            [CompletionResult]::new('--events', '--events', [CompletionResultType]::ParameterName, 'Events to send, comma-separated')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'A note on what the endpoint is for')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;webhook;list' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;webhook;info' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;webhook;edit' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'A new URL')
            [CompletionResult]::new('--events', '--events', [CompletionResultType]::ParameterName, 'New events, replacing the old, comma-separated')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'A new note; "" clears it')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--enable', '--enable', [CompletionResultType]::ParameterName, 'Send events again')
            [CompletionResult]::new('--disable', '--disable', [CompletionResultType]::ParameterName, 'Send no events (and drop those not yet delivered)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;webhook;delete' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;webhook;test' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;webhook;rotate-secret' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;webhook;deliveries' {
            [CompletionResult]::new('--page', '--page', [CompletionResultType]::ParameterName, 'Page, from 1')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Attempts per page (at most 100)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--failed', '--failed', [CompletionResultType]::ParameterName, 'Only attempts that were not answered 2xx')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;webhook;listen' {
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Port to listen on, on 127.0.0.1')
            [CompletionResult]::new('--secret', '--secret', [CompletionResultType]::ParameterName, 'The endpoint''s signing secret; without one nothing is verified')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print each event''s body as one JSON line, nothing else')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;webhook;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Register an endpoint for events of your writes; prints its signing secret once')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your endpoints')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show one endpoint')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change an endpoint''s URL, events or description, or turn it off and on')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete an endpoint, its pending deliveries and its history')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Send a webhook.test event to an endpoint')
            [CompletionResult]::new('rotate-secret', 'rotate-secret', [CompletionResultType]::ParameterValue, 'Give an endpoint a new signing secret; the old one keeps signing for 24 hours')
            [CompletionResult]::new('deliveries', 'deliveries', [CompletionResultType]::ParameterValue, 'List the attempts to deliver to an endpoint, newest first')
            [CompletionResult]::new('listen', 'listen', [CompletionResultType]::ParameterValue, 'Receive webhooks locally and print them as they arrive, checking their signatures')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;webhook;help;add' {
            break
        }
        'linkapi;webhook;help;list' {
            break
        }
        'linkapi;webhook;help;info' {
            break
        }
        'linkapi;webhook;help;edit' {
            break
        }
        'linkapi;webhook;help;delete' {
            break
        }
        'linkapi;webhook;help;test' {
            break
        }
        'linkapi;webhook;help;rotate-secret' {
            break
        }
        'linkapi;webhook;help;deliveries' {
            break
        }
        'linkapi;webhook;help;listen' {
            break
        }
        'linkapi;webhook;help;help' {
            break
        }
        'linkapi;upload' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Upload every file in this directory')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Files uploaded at once (1 to 32)')
            [CompletionResult]::new('--max-size', '--max-size', [CompletionResultType]::ParameterName, 'Largest file to send, in bytes (the server''s default cap)')
            [CompletionResult]::new('--tries', '--tries', [CompletionResultType]::ParameterName, 'Tries per file on 429, 503 and connection errors (1 to 10)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'With --dir, descend into subdirectories too')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print each file''s result as a line of JSON: file, ok, and url or error')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your uploads, newest first')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete uploads by id; the bytes go when no upload of anyone names them')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;upload;list' {
            [CompletionResult]::new('--page', '--page', [CompletionResultType]::ParameterName, 'Page to show')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Uploads per page (at most 100)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;upload;delete' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;upload;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your uploads, newest first')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete uploads by id; the bytes go when no upload of anyone names them')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;upload;help;list' {
            break
        }
        'linkapi;upload;help;delete' {
            break
        }
        'linkapi;upload;help;help' {
            break
        }
        'linkapi;admin' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('user', 'user', [CompletionResultType]::ParameterValue, 'Users')
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'API keys')
            [CompletionResult]::new('domain', 'domain', [CompletionResultType]::ParameterValue, 'Domains')
            [CompletionResult]::new('template', 'template', [CompletionResultType]::ParameterValue, 'Jump-page templates: add, list, edit and retire custom ones')
            [CompletionResult]::new('workchat', 'workchat', [CompletionResultType]::ParameterValue, 'Work-chat data: users'' assembly lists and transfer records')
            [CompletionResult]::new('rotate-visitor-secret', 'rotate-visitor-secret', [CompletionResultType]::ParameterValue, 'Count visitors with a new secret from now on (a visitor seen before counts once more as unique)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;admin;user' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a user')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List users')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a user and what they use: chains, chains created today, uploads, keys')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Rename a user or change their daily quota')
            [CompletionResult]::new('suspend', 'suspend', [CompletionResultType]::ParameterValue, 'Suspend a user: every key of theirs is refused at once, on every instance')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Resume a suspended user: their keys and redirects work again')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;admin;user;create' {
            [CompletionResult]::new('--daily-quota', '--daily-quota', [CompletionResultType]::ParameterName, 'Chains the user may create per day (in the server''s time zone) [default: the server''s]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;user;list' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;user;show' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;user;edit' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'A new unique name')
            [CompletionResult]::new('--daily-quota', '--daily-quota', [CompletionResultType]::ParameterName, 'Chains the user may create per day, or "default" for the server''s')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;user;suspend' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--redirects', '--redirects', [CompletionResultType]::ParameterName, 'Stop their links'' redirects too')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;user;resume' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;user;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a user')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List users')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a user and what they use: chains, chains created today, uploads, keys')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Rename a user or change their daily quota')
            [CompletionResult]::new('suspend', 'suspend', [CompletionResultType]::ParameterValue, 'Suspend a user: every key of theirs is refused at once, on every instance')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Resume a suspended user: their keys and redirects work again')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;admin;user;help;create' {
            break
        }
        'linkapi;admin;user;help;list' {
            break
        }
        'linkapi;admin;user;help;show' {
            break
        }
        'linkapi;admin;user;help;edit' {
            break
        }
        'linkapi;admin;user;help;suspend' {
            break
        }
        'linkapi;admin;user;help;resume' {
            break
        }
        'linkapi;admin;user;help;help' {
            break
        }
        'linkapi;admin;key' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a key; its secret is printed this once')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List keys (never their secrets)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a key at once')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;admin;key;create' {
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The user the key acts as')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'A scope; repeat for more')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Label')
            [CompletionResult]::new('--expires', '--expires', [CompletionResultType]::ParameterName, 'Expiry (as for chain create) [default: never]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;key;list' {
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Only this user''s')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;key;revoke' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;key;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a key; its secret is printed this once')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List keys (never their secrets)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a key at once')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;admin;key;help;create' {
            break
        }
        'linkapi;admin;key;help;list' {
            break
        }
        'linkapi;admin;key;help;revoke' {
            break
        }
        'linkapi;admin;key;help;help' {
            break
        }
        'linkapi;admin;domain' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Register a domain (point its DNS at the server first)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every domain')
            [CompletionResult]::new('set-status', 'set-status', [CompletionResultType]::ParameterValue, 'Switch a domain on (its links serve) or off (they answer 404)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;admin;domain;create' {
            [CompletionResult]::new('--scheme', '--scheme', [CompletionResultType]::ParameterName, 'Scheme of its short links')
            [CompletionResult]::new('--scene', '--scene', [CompletionResultType]::ParameterName, 'Label')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Owner of a private domain [default: you]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--shared', '--shared', [CompletionResultType]::ParameterName, 'Offer it to every user')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;domain;list' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;domain;set-status' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;domain;help' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Register a domain (point its DNS at the server first)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every domain')
            [CompletionResult]::new('set-status', 'set-status', [CompletionResultType]::ParameterValue, 'Switch a domain on (its links serve) or off (they answer 404)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;admin;domain;help;create' {
            break
        }
        'linkapi;admin;domain;help;list' {
            break
        }
        'linkapi;admin;domain;help;set-status' {
            break
        }
        'linkapi;admin;domain;help;help' {
            break
        }
        'linkapi;admin;template' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a custom template')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every template, retired ones included')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change a custom template')
            [CompletionResult]::new('retire', 'retire', [CompletionResultType]::ParameterValue, 'Retire a custom template: no longer offered; chains that use it keep it')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;admin;template;add' {
            [CompletionResult]::new('--style', '--style', [CompletionResultType]::ParameterName, 'Built-in layout: generic, card or poster [default: generic]')
            [CompletionResult]::new('--thumb', '--thumb', [CompletionResultType]::ParameterName, 'Thumbnail URL')
            [CompletionResult]::new('--body-file', '--body-file', [CompletionResultType]::ParameterName, 'Page source (a minijinja template) read from this file')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'Offer it to this user only [default: everyone]')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;template;list' {
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;template;edit' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'New name')
            [CompletionResult]::new('--style', '--style', [CompletionResultType]::ParameterName, 'New layout')
            [CompletionResult]::new('--thumb', '--thumb', [CompletionResultType]::ParameterName, 'New thumbnail URL (empty removes it)')
            [CompletionResult]::new('--body-file', '--body-file', [CompletionResultType]::ParameterName, 'New page source from this file')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;template;retire' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;template;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a custom template')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every template, retired ones included')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change a custom template')
            [CompletionResult]::new('retire', 'retire', [CompletionResultType]::ParameterValue, 'Retire a custom template: no longer offered; chains that use it keep it')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;admin;template;help;add' {
            break
        }
        'linkapi;admin;template;help;list' {
            break
        }
        'linkapi;admin;template;help;edit' {
            break
        }
        'linkapi;admin;template;help;retire' {
            break
        }
        'linkapi;admin;template;help;help' {
            break
        }
        'linkapi;admin;workchat' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add-assembly', 'add-assembly', [CompletionResultType]::ParameterValue, 'Add an acquisition link to a user''s assembly list (or change the one with its link id)')
            [CompletionResult]::new('assemblies', 'assemblies', [CompletionResultType]::ParameterValue, 'A user''s assembly list')
            [CompletionResult]::new('load-transfers', 'load-transfers', [CompletionResultType]::ParameterValue, 'Load transfer records from a file: a JSON array or JSON lines of {external_userid, name, status, takeover_time, errcode, reason}')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;admin;workchat;add-assembly' {
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The user whose list it is')
            [CompletionResult]::new('--link-id', '--link-id', [CompletionResultType]::ParameterName, 'The work-chat''s id of the link')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Its name')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'The acquisition URL')
            [CompletionResult]::new('--auth-status', '--auth-status', [CompletionResultType]::ParameterName, 'Authorization state, free text')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--invalid', '--invalid', [CompletionResultType]::ParameterName, 'Mark it invalid: no chain may choose it')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;workchat;assemblies' {
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The user')
            [CompletionResult]::new('--page', '--page', [CompletionResultType]::ParameterName, 'Page to show')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Entries per page (at most 100)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON; with =FIELDS (comma-separated) only those fields')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;workchat;load-transfers' {
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The user whose data it is')
            [CompletionResult]::new('--corp', '--corp', [CompletionResultType]::ParameterName, 'The corp id')
            [CompletionResult]::new('--handover', '--handover', [CompletionResultType]::ParameterName, 'The work-chat user handing customers over')
            [CompletionResult]::new('--takeover', '--takeover', [CompletionResultType]::ParameterName, 'The work-chat user taking them over')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;workchat;help' {
            [CompletionResult]::new('add-assembly', 'add-assembly', [CompletionResultType]::ParameterValue, 'Add an acquisition link to a user''s assembly list (or change the one with its link id)')
            [CompletionResult]::new('assemblies', 'assemblies', [CompletionResultType]::ParameterValue, 'A user''s assembly list')
            [CompletionResult]::new('load-transfers', 'load-transfers', [CompletionResultType]::ParameterValue, 'Load transfer records from a file: a JSON array or JSON lines of {external_userid, name, status, takeover_time, errcode, reason}')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;admin;workchat;help;add-assembly' {
            break
        }
        'linkapi;admin;workchat;help;assemblies' {
            break
        }
        'linkapi;admin;workchat;help;load-transfers' {
            break
        }
        'linkapi;admin;workchat;help;help' {
            break
        }
        'linkapi;admin;rotate-visitor-secret' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;admin;help' {
            [CompletionResult]::new('user', 'user', [CompletionResultType]::ParameterValue, 'Users')
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'API keys')
            [CompletionResult]::new('domain', 'domain', [CompletionResultType]::ParameterValue, 'Domains')
            [CompletionResult]::new('template', 'template', [CompletionResultType]::ParameterValue, 'Jump-page templates: add, list, edit and retire custom ones')
            [CompletionResult]::new('workchat', 'workchat', [CompletionResultType]::ParameterValue, 'Work-chat data: users'' assembly lists and transfer records')
            [CompletionResult]::new('rotate-visitor-secret', 'rotate-visitor-secret', [CompletionResultType]::ParameterValue, 'Count visitors with a new secret from now on (a visitor seen before counts once more as unique)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;admin;help;user' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a user')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List users')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a user and what they use: chains, chains created today, uploads, keys')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Rename a user or change their daily quota')
            [CompletionResult]::new('suspend', 'suspend', [CompletionResultType]::ParameterValue, 'Suspend a user: every key of theirs is refused at once, on every instance')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Resume a suspended user: their keys and redirects work again')
            break
        }
        'linkapi;admin;help;user;create' {
            break
        }
        'linkapi;admin;help;user;list' {
            break
        }
        'linkapi;admin;help;user;show' {
            break
        }
        'linkapi;admin;help;user;edit' {
            break
        }
        'linkapi;admin;help;user;suspend' {
            break
        }
        'linkapi;admin;help;user;resume' {
            break
        }
        'linkapi;admin;help;key' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a key; its secret is printed this once')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List keys (never their secrets)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a key at once')
            break
        }
        'linkapi;admin;help;key;create' {
            break
        }
        'linkapi;admin;help;key;list' {
            break
        }
        'linkapi;admin;help;key;revoke' {
            break
        }
        'linkapi;admin;help;domain' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Register a domain (point its DNS at the server first)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every domain')
            [CompletionResult]::new('set-status', 'set-status', [CompletionResultType]::ParameterValue, 'Switch a domain on (its links serve) or off (they answer 404)')
            break
        }
        'linkapi;admin;help;domain;create' {
            break
        }
        'linkapi;admin;help;domain;list' {
            break
        }
        'linkapi;admin;help;domain;set-status' {
            break
        }
        'linkapi;admin;help;template' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a custom template')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every template, retired ones included')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change a custom template')
            [CompletionResult]::new('retire', 'retire', [CompletionResultType]::ParameterValue, 'Retire a custom template: no longer offered; chains that use it keep it')
            break
        }
        'linkapi;admin;help;template;add' {
            break
        }
        'linkapi;admin;help;template;list' {
            break
        }
        'linkapi;admin;help;template;edit' {
            break
        }
        'linkapi;admin;help;template;retire' {
            break
        }
        'linkapi;admin;help;workchat' {
            [CompletionResult]::new('add-assembly', 'add-assembly', [CompletionResultType]::ParameterValue, 'Add an acquisition link to a user''s assembly list (or change the one with its link id)')
            [CompletionResult]::new('assemblies', 'assemblies', [CompletionResultType]::ParameterValue, 'A user''s assembly list')
            [CompletionResult]::new('load-transfers', 'load-transfers', [CompletionResultType]::ParameterValue, 'Load transfer records from a file: a JSON array or JSON lines of {external_userid, name, status, takeover_time, errcode, reason}')
            break
        }
        'linkapi;admin;help;workchat;add-assembly' {
            break
        }
        'linkapi;admin;help;workchat;assemblies' {
            break
        }
        'linkapi;admin;help;workchat;load-transfers' {
            break
        }
        'linkapi;admin;help;rotate-visitor-secret' {
            break
        }
        'linkapi;admin;help;help' {
            break
        }
        'linkapi;serve' {
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'Address to listen on [default: 127.0.0.1:8080]')
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Directory of the SQLite database and uploads [default: the configuration file''s, else the user''s data directory]')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'PostgreSQL database to use instead of the SQLite file, shared by every instance: postgres://user:password@host:port/db (add ?sslmode=require for TLS)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'TOML configuration file; flags override its values')
            [CompletionResult]::new('--public-url', '--public-url', [CompletionResultType]::ParameterName, 'Public base URL of short links, as scheme://host or scheme://host:port [default: http://ADDR]')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;data' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('backup', 'backup', [CompletionResultType]::ParameterValue, 'Write a consistent snapshot of the SQLite database, while the server runs')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Put a backup in place of the SQLite database (stop the server first)')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Copy a SQLite deployment''s database into PostgreSQL (stop the server first)')
            [CompletionResult]::new('admin-key', 'admin-key', [CompletionResultType]::ParameterValue, 'Make a new admin key (scope *) for the first user, when every other is lost')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;data;backup' {
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Directory of the SQLite database and uploads [default: the configuration file''s, else the user''s data directory]')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'PostgreSQL database to use instead of the SQLite file, shared by every instance: postgres://user:password@host:port/db (add ?sslmode=require for TLS)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'TOML configuration file; flags override its values')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'File to write the snapshot to; must not exist')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;data;restore' {
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Directory of the SQLite database and uploads [default: the configuration file''s, else the user''s data directory]')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'PostgreSQL database to use instead of the SQLite file, shared by every instance: postgres://user:password@host:port/db (add ?sslmode=require for TLS)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'TOML configuration file; flags override its values')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The backup to put in place')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;data;migrate' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The SQLite database to copy, as sqlite:PATH (the database file or its data directory)')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'The PostgreSQL database to copy into: postgres://user:password@host:port/db')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Replace whatever the target holds (by default a target with data is refused)')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;data;admin-key' {
            [CompletionResult]::new('--data-dir', '--data-dir', [CompletionResultType]::ParameterName, 'Directory of the SQLite database and uploads [default: the configuration file''s, else the user''s data directory]')
            [CompletionResult]::new('--database-url', '--database-url', [CompletionResultType]::ParameterName, 'PostgreSQL database to use instead of the SQLite file, shared by every instance: postgres://user:password@host:port/db (add ?sslmode=require for TLS)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'TOML configuration file; flags override its values')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;data;help' {
            [CompletionResult]::new('backup', 'backup', [CompletionResultType]::ParameterValue, 'Write a consistent snapshot of the SQLite database, while the server runs')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Put a backup in place of the SQLite database (stop the server first)')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Copy a SQLite deployment''s database into PostgreSQL (stop the server first)')
            [CompletionResult]::new('admin-key', 'admin-key', [CompletionResultType]::ParameterValue, 'Make a new admin key (scope *) for the first user, when every other is lost')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;data;help;backup' {
            break
        }
        'linkapi;data;help;restore' {
            break
        }
        'linkapi;data;help;migrate' {
            break
        }
        'linkapi;data;help;admin-key' {
            break
        }
        'linkapi;data;help;help' {
            break
        }
        'linkapi;completions' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;man' {
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'Write linkapi.1 and one page per subcommand here instead of printing linkapi.1')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]')
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]')
            [CompletionResult]::new('--no-input', '--no-input', [CompletionResultType]::ParameterName, 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'linkapi;help' {
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'Log in to a server, see where keys come from, log out')
            [CompletionResult]::new('chain', 'chain', [CompletionResultType]::ParameterValue, 'Create, list, inspect, edit and delete short links')
            [CompletionResult]::new('group', 'group', [CompletionResultType]::ParameterValue, 'Create and list groups of chains')
            [CompletionResult]::new('domain', 'domain', [CompletionResultType]::ParameterValue, 'List the domains you may create chains on')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Show visits: a chain''s totals and daily trend, where they came from, or your top chains')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Bring your links over from chhoto-url, Kutt, YOURLS, Shlink, Bitly or a linkapi export')
            [CompletionResult]::new('wx', 'wx', [CompletionResultType]::ParameterValue, 'Messaging-app chains: QR codes that rotate, account IDs, mini-programs, shops')
            [CompletionResult]::new('card', 'card', [CompletionResultType]::ParameterValue, 'Card chains: messaging-app chains in the card namespace')
            [CompletionResult]::new('workchat', 'workchat', [CompletionResultType]::ParameterValue, 'Work-chat chains, your assembly list and customer-transfer results')
            [CompletionResult]::new('conversion', 'conversion', [CompletionResultType]::ParameterValue, 'Report ad conversions for a chain and list what was recorded')
            [CompletionResult]::new('template', 'template', [CompletionResultType]::ParameterValue, 'List the jump-page templates you may use')
            [CompletionResult]::new('webhook', 'webhook', [CompletionResultType]::ParameterValue, 'Send events of your writes to your own endpoints, and receive them locally')
            [CompletionResult]::new('upload', 'upload', [CompletionResultType]::ParameterValue, 'Upload images (many at once, with progress bars), list and delete uploads')
            [CompletionResult]::new('admin', 'admin', [CompletionResultType]::ParameterValue, 'Manage users, API keys and domains (needs a key with scope admin)')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Run the server locally (same flags as linkapi-server)')
            [CompletionResult]::new('data', 'data', [CompletionResultType]::ParameterValue, 'Back up, restore, or move to PostgreSQL the data of a local server (same as linkapi-server''s commands)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the manual page, or write every page into a directory')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'linkapi;help;auth' {
            [CompletionResult]::new('login', 'login', [CompletionResultType]::ParameterValue, 'Store an API key for a server, checked against the server first')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Show each profile''s server, where its key comes from, and whether the key works')
            [CompletionResult]::new('logout', 'logout', [CompletionResultType]::ParameterValue, 'Forget the stored key of the profile (the key itself stays valid on the server)')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Print the key the current profile would use')
            break
        }
        'linkapi;help;auth;login' {
            break
        }
        'linkapi;help;auth;status' {
            break
        }
        'linkapi;help;auth;logout' {
            break
        }
        'linkapi;help;auth;token' {
            break
        }
        'linkapi;help;chain' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a short link')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Create many chains from CSV or JSON lines, one chain per line')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write all your short links, with what a re-import needs, as JSON lines or CSV')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your short links, newest first')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show one chain')
            [CompletionResult]::new('qr', 'qr', [CompletionResultType]::ParameterValue, 'Show a chain''s QR code in the terminal, or write it as PNG or SVG')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change a chain''s title, destination, expiry, rules, redirect status, start, visit limit or preview')
            [CompletionResult]::new('archive', 'archive', [CompletionResultType]::ParameterValue, 'Archive a chain: it still redirects, and `chain list` leaves it out')
            [CompletionResult]::new('unarchive', 'unarchive', [CompletionResultType]::ParameterValue, 'Bring an archived chain back to `chain list`')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete chains (their codes are never reused)')
            break
        }
        'linkapi;help;chain;create' {
            break
        }
        'linkapi;help;chain;import' {
            break
        }
        'linkapi;help;chain;export' {
            break
        }
        'linkapi;help;chain;list' {
            break
        }
        'linkapi;help;chain;info' {
            break
        }
        'linkapi;help;chain;qr' {
            break
        }
        'linkapi;help;chain;edit' {
            break
        }
        'linkapi;help;chain;archive' {
            break
        }
        'linkapi;help;chain;unarchive' {
            break
        }
        'linkapi;help;chain;delete' {
            break
        }
        'linkapi;help;group' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a group')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your groups')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show one of your groups: its name, kind and live chains')
            break
        }
        'linkapi;help;group;create' {
            break
        }
        'linkapi;help;group;list' {
            break
        }
        'linkapi;help;group;info' {
            break
        }
        'linkapi;help;domain' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the domains you may use')
            break
        }
        'linkapi;help;domain;list' {
            break
        }
        'linkapi;help;stats' {
            break
        }
        'linkapi;help;import' {
            break
        }
        'linkapi;help;wx' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a messaging-app chain')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your messaging-app chains, newest first')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show one chain and its channels')
            [CompletionResult]::new('qr', 'qr', [CompletionResultType]::ParameterValue, 'Show a chain''s QR code in the terminal, or write it as PNG or SVG')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change a chain''s fields and channels')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete messaging-app chains')
            break
        }
        'linkapi;help;wx;create' {
            break
        }
        'linkapi;help;wx;list' {
            break
        }
        'linkapi;help;wx;info' {
            break
        }
        'linkapi;help;wx;qr' {
            break
        }
        'linkapi;help;wx;edit' {
            break
        }
        'linkapi;help;wx;delete' {
            break
        }
        'linkapi;help;card' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'Your card chains (at most 100, newest first)')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a chain in the card namespace (always the generic page: no --template)')
            break
        }
        'linkapi;help;card;list' {
            break
        }
        'linkapi;help;card;create' {
            break
        }
        'linkapi;help;workchat' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a work-chat chain')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change a work-chat chain')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show a work-chat chain')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your work-chat chains, newest first')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete work-chat chains')
            [CompletionResult]::new('assemblies', 'assemblies', [CompletionResultType]::ParameterValue, 'Your assembly list: the acquisition links work-chat chains may lead to')
            [CompletionResult]::new('transfers', 'transfers', [CompletionResultType]::ParameterValue, 'Customer-ownership transfer results of a corp')
            break
        }
        'linkapi;help;workchat;create' {
            break
        }
        'linkapi;help;workchat;edit' {
            break
        }
        'linkapi;help;workchat;info' {
            break
        }
        'linkapi;help;workchat;list' {
            break
        }
        'linkapi;help;workchat;delete' {
            break
        }
        'linkapi;help;workchat;assemblies' {
            break
        }
        'linkapi;help;workchat;transfers' {
            break
        }
        'linkapi;help;conversion' {
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'Report a conversion; a repeat of the same chain, type and out id is recognised as a duplicate and not recorded twice')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the conversions recorded for a chain, newest first')
            break
        }
        'linkapi;help;conversion;report' {
            break
        }
        'linkapi;help;conversion;list' {
            break
        }
        'linkapi;help;template' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the templates offered to you, and which your chains use')
            break
        }
        'linkapi;help;template;list' {
            break
        }
        'linkapi;help;webhook' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Register an endpoint for events of your writes; prints its signing secret once')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your endpoints')
            [CompletionResult]::new('info', 'info', [CompletionResultType]::ParameterValue, 'Show one endpoint')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change an endpoint''s URL, events or description, or turn it off and on')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete an endpoint, its pending deliveries and its history')
            [CompletionResult]::new('test', 'test', [CompletionResultType]::ParameterValue, 'Send a webhook.test event to an endpoint')
            [CompletionResult]::new('rotate-secret', 'rotate-secret', [CompletionResultType]::ParameterValue, 'Give an endpoint a new signing secret; the old one keeps signing for 24 hours')
            [CompletionResult]::new('deliveries', 'deliveries', [CompletionResultType]::ParameterValue, 'List the attempts to deliver to an endpoint, newest first')
            [CompletionResult]::new('listen', 'listen', [CompletionResultType]::ParameterValue, 'Receive webhooks locally and print them as they arrive, checking their signatures')
            break
        }
        'linkapi;help;webhook;add' {
            break
        }
        'linkapi;help;webhook;list' {
            break
        }
        'linkapi;help;webhook;info' {
            break
        }
        'linkapi;help;webhook;edit' {
            break
        }
        'linkapi;help;webhook;delete' {
            break
        }
        'linkapi;help;webhook;test' {
            break
        }
        'linkapi;help;webhook;rotate-secret' {
            break
        }
        'linkapi;help;webhook;deliveries' {
            break
        }
        'linkapi;help;webhook;listen' {
            break
        }
        'linkapi;help;upload' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List your uploads, newest first')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete uploads by id; the bytes go when no upload of anyone names them')
            break
        }
        'linkapi;help;upload;list' {
            break
        }
        'linkapi;help;upload;delete' {
            break
        }
        'linkapi;help;admin' {
            [CompletionResult]::new('user', 'user', [CompletionResultType]::ParameterValue, 'Users')
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'API keys')
            [CompletionResult]::new('domain', 'domain', [CompletionResultType]::ParameterValue, 'Domains')
            [CompletionResult]::new('template', 'template', [CompletionResultType]::ParameterValue, 'Jump-page templates: add, list, edit and retire custom ones')
            [CompletionResult]::new('workchat', 'workchat', [CompletionResultType]::ParameterValue, 'Work-chat data: users'' assembly lists and transfer records')
            [CompletionResult]::new('rotate-visitor-secret', 'rotate-visitor-secret', [CompletionResultType]::ParameterValue, 'Count visitors with a new secret from now on (a visitor seen before counts once more as unique)')
            break
        }
        'linkapi;help;admin;user' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a user')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List users')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a user and what they use: chains, chains created today, uploads, keys')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Rename a user or change their daily quota')
            [CompletionResult]::new('suspend', 'suspend', [CompletionResultType]::ParameterValue, 'Suspend a user: every key of theirs is refused at once, on every instance')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Resume a suspended user: their keys and redirects work again')
            break
        }
        'linkapi;help;admin;user;create' {
            break
        }
        'linkapi;help;admin;user;list' {
            break
        }
        'linkapi;help;admin;user;show' {
            break
        }
        'linkapi;help;admin;user;edit' {
            break
        }
        'linkapi;help;admin;user;suspend' {
            break
        }
        'linkapi;help;admin;user;resume' {
            break
        }
        'linkapi;help;admin;key' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a key; its secret is printed this once')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List keys (never their secrets)')
            [CompletionResult]::new('revoke', 'revoke', [CompletionResultType]::ParameterValue, 'Revoke a key at once')
            break
        }
        'linkapi;help;admin;key;create' {
            break
        }
        'linkapi;help;admin;key;list' {
            break
        }
        'linkapi;help;admin;key;revoke' {
            break
        }
        'linkapi;help;admin;domain' {
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Register a domain (point its DNS at the server first)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every domain')
            [CompletionResult]::new('set-status', 'set-status', [CompletionResultType]::ParameterValue, 'Switch a domain on (its links serve) or off (they answer 404)')
            break
        }
        'linkapi;help;admin;domain;create' {
            break
        }
        'linkapi;help;admin;domain;list' {
            break
        }
        'linkapi;help;admin;domain;set-status' {
            break
        }
        'linkapi;help;admin;template' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a custom template')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List every template, retired ones included')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change a custom template')
            [CompletionResult]::new('retire', 'retire', [CompletionResultType]::ParameterValue, 'Retire a custom template: no longer offered; chains that use it keep it')
            break
        }
        'linkapi;help;admin;template;add' {
            break
        }
        'linkapi;help;admin;template;list' {
            break
        }
        'linkapi;help;admin;template;edit' {
            break
        }
        'linkapi;help;admin;template;retire' {
            break
        }
        'linkapi;help;admin;workchat' {
            [CompletionResult]::new('add-assembly', 'add-assembly', [CompletionResultType]::ParameterValue, 'Add an acquisition link to a user''s assembly list (or change the one with its link id)')
            [CompletionResult]::new('assemblies', 'assemblies', [CompletionResultType]::ParameterValue, 'A user''s assembly list')
            [CompletionResult]::new('load-transfers', 'load-transfers', [CompletionResultType]::ParameterValue, 'Load transfer records from a file: a JSON array or JSON lines of {external_userid, name, status, takeover_time, errcode, reason}')
            break
        }
        'linkapi;help;admin;workchat;add-assembly' {
            break
        }
        'linkapi;help;admin;workchat;assemblies' {
            break
        }
        'linkapi;help;admin;workchat;load-transfers' {
            break
        }
        'linkapi;help;admin;rotate-visitor-secret' {
            break
        }
        'linkapi;help;serve' {
            break
        }
        'linkapi;help;data' {
            [CompletionResult]::new('backup', 'backup', [CompletionResultType]::ParameterValue, 'Write a consistent snapshot of the SQLite database, while the server runs')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Put a backup in place of the SQLite database (stop the server first)')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Copy a SQLite deployment''s database into PostgreSQL (stop the server first)')
            [CompletionResult]::new('admin-key', 'admin-key', [CompletionResultType]::ParameterValue, 'Make a new admin key (scope *) for the first user, when every other is lost')
            break
        }
        'linkapi;help;data;backup' {
            break
        }
        'linkapi;help;data;restore' {
            break
        }
        'linkapi;help;data;migrate' {
            break
        }
        'linkapi;help;data;admin-key' {
            break
        }
        'linkapi;help;completions' {
            break
        }
        'linkapi;help;man' {
            break
        }
        'linkapi;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
