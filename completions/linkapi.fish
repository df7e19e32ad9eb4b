# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_linkapi_global_optspecs
    string join \n host= profile= no-input h/help V/version
end

function __fish_linkapi_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_linkapi_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_linkapi_using_subcommand
    set -l cmd (__fish_linkapi_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c linkapi -n "__fish_linkapi_needs_command" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_needs_command" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_needs_command" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_needs_command" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_needs_command" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "auth" -d 'Log in to a server, see where keys come from, log out'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "chain" -d 'Create, list, inspect, edit and delete short links'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "group" -d 'Create and list groups of chains'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "domain" -d 'List the domains you may create chains on'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "stats" -d 'Show visits: a chain\'s totals and daily trend, where they came from, or your top chains'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "wx" -d 'Messaging-app chains: QR codes that rotate, account IDs, mini-programs, shops'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "card" -d 'Card chains: messaging-app chains in the card namespace'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "workchat" -d 'Work-chat chains, your assembly list and customer-transfer results'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "conversion" -d 'Report ad conversions for a chain and list what was recorded'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "template" -d 'List the jump-page templates you may use'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "webhook" -d 'Send events of your writes to your own endpoints, and receive them locally'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "upload" -d 'Upload images (many at once, with progress bars), list and delete uploads'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "admin" -d 'Manage users, API keys and domains (needs a key with scope admin)'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "serve" -d 'Run the server locally (same flags as linkapi-server)'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "data" -d 'Back up, restore, or move to PostgreSQL the data of a local server (same as linkapi-server\'s commands)'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "man" -d 'Print the manual page, or write every page into a directory'
complete -c linkapi -n "__fish_linkapi_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -f -a "login" -d 'Store an API key for a server, checked against the server first'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -f -a "status" -d 'Show each profile\'s server, where its key comes from, and whether the key works'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -f -a "logout" -d 'Forget the stored key of the profile (the key itself stays valid on the server)'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -f -a "token" -d 'Print the key the current profile would use'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and not __fish_seen_subcommand_from login status logout token help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from login" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from login" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from login" -l with-key -d 'Read the key from standard input'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from login" -l insecure-storage -d 'Store the key in credentials.toml (mode 0600) instead of the OS keyring'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from login" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from login" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from login" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from status" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from status" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from status" -l show-key -d 'Show keys in full instead of masked'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from status" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from logout" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from logout" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from logout" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from logout" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from logout" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from token" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from token" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from token" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from token" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from token" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "login" -d 'Store an API key for a server, checked against the server first'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "status" -d 'Show each profile\'s server, where its key comes from, and whether the key works'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "logout" -d 'Forget the stored key of the profile (the key itself stays valid on the server)'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "token" -d 'Print the key the current profile would use'
complete -c linkapi -n "__fish_linkapi_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and not __fish_seen_subcommand_from create import list info qr edit delete help" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and not __fish_seen_subcommand_from create import list info qr edit delete help" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and not __fish_seen_subcommand_from create import list info qr edit delete help" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and not __fish_seen_subcommand_from create import list info qr edit delete help" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and not __fish_seen_subcommand_from create import list info qr edit delete help" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and not __fish_seen_subcommand_from create import list info qr edit delete help" -f -a "create" -d 'Create a short link'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and not __fish_seen_subcommand_from create import list info qr edit delete help" -f -a "import" -d 'Create many chains from CSV or JSON lines, one chain per line'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and not __fish_seen_subcommand_from create import list info qr edit delete help" -f -a "list" -d 'List your short links, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and not __fish_seen_subcommand_from create import list info qr edit delete help" -f -a "info" -d 'Show one chain'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and not __fish_seen_subcommand_from create import list info qr edit delete help" -f -a "qr" -d 'Show a chain\'s QR code in the terminal, or write it as PNG or SVG'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and not __fish_seen_subcommand_from create import list info qr edit delete help" -f -a "edit" -d 'Change a chain\'s title, destination, expiry or redirect rules'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and not __fish_seen_subcommand_from create import list info qr edit delete help" -f -a "delete" -d 'Delete chains (their codes are never reused)'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and not __fish_seen_subcommand_from create import list info qr edit delete help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from create" -l title -d 'Label' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from create" -l code -d 'Custom code instead of a random one' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from create" -l domain -d 'Domain id [default: the server\'s default domain]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from create" -l group -d 'Group id' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from create" -l expires -d 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds [default: never]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from create" -l rule -d 'A redirect rule, CONDITION[,CONDITION...] => URL, where a condition is device=KIND, country=CC, language=LL or query.NAME=VALUE; repeat for more, first match wins' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from create" -l rules-file -d 'Redirect rules as a JSON array of {device, country, language, query, target_url} (- reads standard input)' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from create" -l idempotency-key -d 'The request\'s Idempotency-Key (1 to 255 printable ASCII characters) [default: a new random one]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from create" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from create" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from create" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from create" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from import" -l format -d 'Input format [default: from the file extension, else by the first character]' -r -f -a "csv\t'Comma-separated values with a header row'
jsonl\t'One JSON object per line'"
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from import" -l idempotency-key -d 'Prefix of the batches\' Idempotency-Keys, which end in /N for the Nth batch [default: a digest of each batch\'s lines]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from import" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from import" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from import" -l json -d 'Print each line\'s result as a JSON object'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from import" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from list" -l page -d 'Page to show' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from list" -l limit -d 'Chains per page (1 to 100) [default: 20; with --all, 100]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from list" -l group -d 'Only chains in this group' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from list" -s q -l query -d 'Only chains whose title or code contains this' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from list" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from list" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from list" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from list" -l all -d 'Every page'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from list" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from info" -l domain -d 'Domain id, when you have the code on several domains' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from info" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from info" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from info" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from info" -l code -d 'Take CHAIN as a code even when it is all digits'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from info" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from info" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from info" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from qr" -l domain -d 'Domain id, when you have the code on several domains' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from qr" -s o -l output -d 'Write the image to this file' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from qr" -l format -d 'Image format [default: from the --output extension, else png]' -r -f -a "png\t'PNG'
svg\t'SVG'"
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from qr" -l size -d 'Side of the image in pixels (64 to 2048)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from qr" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from qr" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from qr" -l code -d 'Take CHAIN as a code even when it is all digits'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from qr" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from qr" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from qr" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from edit" -l domain -d 'Domain id, when you have the code on several domains' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from edit" -l title -d 'New label' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from edit" -l target-url -d 'New destination' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from edit" -l expires -d 'New expiry (as for create; 0 is never)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from edit" -l rule -d 'A redirect rule, CONDITION[,CONDITION...] => URL, where a condition is device=KIND, country=CC, language=LL or query.NAME=VALUE; repeat for more, first match wins' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from edit" -l rules-file -d 'Redirect rules as a JSON array of {device, country, language, query, target_url} (- reads standard input)' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from edit" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from edit" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from edit" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from edit" -l code -d 'Take CHAIN as a code even when it is all digits'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from edit" -l clear-rules -d 'Remove all the chain\'s redirect rules'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from edit" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from edit" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from edit" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from delete" -l domain -d 'Domain id, when you have the codes on several domains' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from delete" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from delete" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from delete" -l code -d 'Take every CHAIN as a code'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from delete" -s y -l yes -d 'Do not ask for confirmation'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from delete" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from help" -f -a "create" -d 'Create a short link'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from help" -f -a "import" -d 'Create many chains from CSV or JSON lines, one chain per line'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from help" -f -a "list" -d 'List your short links, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from help" -f -a "info" -d 'Show one chain'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from help" -f -a "qr" -d 'Show a chain\'s QR code in the terminal, or write it as PNG or SVG'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from help" -f -a "edit" -d 'Change a chain\'s title, destination, expiry or redirect rules'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete chains (their codes are never reused)'
complete -c linkapi -n "__fish_linkapi_using_subcommand chain; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and not __fish_seen_subcommand_from create list info help" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and not __fish_seen_subcommand_from create list info help" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and not __fish_seen_subcommand_from create list info help" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and not __fish_seen_subcommand_from create list info help" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and not __fish_seen_subcommand_from create list info help" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and not __fish_seen_subcommand_from create list info help" -f -a "create" -d 'Create a group'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and not __fish_seen_subcommand_from create list info help" -f -a "list" -d 'List your groups'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and not __fish_seen_subcommand_from create list info help" -f -a "info" -d 'Show one of your groups: its name, kind and live chains'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and not __fish_seen_subcommand_from create list info help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from create" -l chain-type -d 'Kind of chains it holds: 1 short, 2 external, 3 work-chat, 4 card' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from create" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from create" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from create" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from create" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from list" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from list" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from list" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from list" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from info" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from info" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from info" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from info" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from info" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from info" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from help" -f -a "create" -d 'Create a group'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from help" -f -a "list" -d 'List your groups'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from help" -f -a "info" -d 'Show one of your groups: its name, kind and live chains'
complete -c linkapi -n "__fish_linkapi_using_subcommand group; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand domain; and not __fish_seen_subcommand_from list help" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand domain; and not __fish_seen_subcommand_from list help" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand domain; and not __fish_seen_subcommand_from list help" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand domain; and not __fish_seen_subcommand_from list help" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand domain; and not __fish_seen_subcommand_from list help" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand domain; and not __fish_seen_subcommand_from list help" -f -a "list" -d 'List the domains you may use'
complete -c linkapi -n "__fish_linkapi_using_subcommand domain; and not __fish_seen_subcommand_from list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand domain; and __fish_seen_subcommand_from list" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand domain; and __fish_seen_subcommand_from list" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand domain; and __fish_seen_subcommand_from list" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand domain; and __fish_seen_subcommand_from list" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand domain; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand domain; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand domain; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the domains you may use'
complete -c linkapi -n "__fish_linkapi_using_subcommand domain; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand stats" -l domain -d 'Domain id, when you have the code on several domains' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand stats" -l days -d 'Days counted, today included (1 to 365)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand stats" -l by -d 'Break the chain\'s visits down by this' -r -f -a "referrers\t''
devices\t''
os\t''
browsers\t''
countries\t''
languages\t''
rules\t''"
complete -c linkapi -n "__fish_linkapi_using_subcommand stats" -l limit -d 'Values (with --by) or chains (without a CHAIN) to list, most visits first (1 to 100)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand stats" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand stats" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand stats" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand stats" -l code -d 'Take CHAIN as a code even when it is all digits'
complete -c linkapi -n "__fish_linkapi_using_subcommand stats" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand stats" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand stats" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and not __fish_seen_subcommand_from create list info edit delete help" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and not __fish_seen_subcommand_from create list info edit delete help" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and not __fish_seen_subcommand_from create list info edit delete help" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and not __fish_seen_subcommand_from create list info edit delete help" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and not __fish_seen_subcommand_from create list info edit delete help" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and not __fish_seen_subcommand_from create list info edit delete help" -f -a "create" -d 'Create a messaging-app chain'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and not __fish_seen_subcommand_from create list info edit delete help" -f -a "list" -d 'List your messaging-app chains, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and not __fish_seen_subcommand_from create list info edit delete help" -f -a "info" -d 'Show one chain and its channels'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and not __fish_seen_subcommand_from create list info edit delete help" -f -a "edit" -d 'Change a chain\'s fields and channels'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and not __fish_seen_subcommand_from create list info edit delete help" -f -a "delete" -d 'Delete messaging-app chains'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and not __fish_seen_subcommand_from create list info edit delete help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l from-file -d 'Full input as JSON (the body of POST /wx-chains, channel_list included), or - for standard input; flags override its fields' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l title -d 'Label' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l sub-type -d 'Where the chain leads [default on create: scan-qr]' -r -f -a "scan-qr\t'1: a QR code to scan (--qr-url or --channel)'
account\t'2: an account ID to add (--wx-id)'
mini-program\t'3: a mini-program (--mini-appid, --mini-path)'
shop\t'4: a shop (--shop-appid, --shop-path)'
workchat-url\t'5: a work-chat acquisition URL (--qwhk-url)'"
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l qr-url -d 'The chain\'s own QR image URL (scan-qr)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l wx-id -d 'Account ID (account)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l mini-appid -d 'Mini-program app id (mini-program)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l mini-path -d 'Mini-program page path (mini-program)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l shop-appid -d 'Shop app id (shop)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l shop-path -d 'Shop page path (shop)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l qwhk-url -d 'Work-chat acquisition URL (workchat-url)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l avatar -d 'Avatar image URL' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l guide-text -d 'A line guiding the visitor' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l desc -d 'Longer text on the page' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l sub-title -d 'Line under the heading (at most 20 characters; shown with --show-type small)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l show-type -d 'Image layout' -r -f -a "small\t'1: a small image (the QR code) with the sub-title'
long\t'2: a long image across the page'"
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l template -d 'Jump-page template id (see linkapi template list)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l scan-tips -d 'Show a hint on how to scan (0 or 1)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l rotation -d 'How visits pick a channel' -r -f -a "sort\t'1: in sort order, each until its limit or expiry'
weighted\t'3: weighted random by ratio'
round-robin\t'4: round robin'
uniform\t'5: uniform random'"
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l cap -d 'What channel limits cap' -r -f -a "total\t'1: visits ever'
daily\t'2: visits per day'"
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l channel -d 'Add a channel with this QR image URL (repeatable; sort order as given). Use --from-file for limits, ratios and expiry' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l expires -d 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l group -d 'Group id (a group of chain type 2)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l code -d 'Custom code instead of a random one' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l domain -d 'Domain id [default: the server\'s default domain]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l direct-jump -d 'Jump straight to the destination instead of showing the page'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l page -d 'Show the page (undoes --direct-jump on edit)'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from list" -l page -d 'Page to show' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from list" -l limit -d 'Chains per page (1 to 100) [default: 20; with --all, 100]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from list" -s q -l query -d 'Only chains whose title or code contains this' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from list" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from list" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from list" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from list" -l all -d 'Every page'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from list" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from info" -l domain -d 'Domain id, when you have the code on several domains' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from info" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from info" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from info" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from info" -l code -d 'Take CHAIN as a code even when it is all digits'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from info" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from info" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from info" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l domain -d 'Domain id, when you have the code on several domains' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l from-file -d 'Full input as JSON (the body of POST /wx-chains, channel_list included), or - for standard input; flags override its fields' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l title -d 'Label' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l sub-type -d 'Where the chain leads [default on create: scan-qr]' -r -f -a "scan-qr\t'1: a QR code to scan (--qr-url or --channel)'
account\t'2: an account ID to add (--wx-id)'
mini-program\t'3: a mini-program (--mini-appid, --mini-path)'
shop\t'4: a shop (--shop-appid, --shop-path)'
workchat-url\t'5: a work-chat acquisition URL (--qwhk-url)'"
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l qr-url -d 'The chain\'s own QR image URL (scan-qr)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l wx-id -d 'Account ID (account)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l mini-appid -d 'Mini-program app id (mini-program)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l mini-path -d 'Mini-program page path (mini-program)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l shop-appid -d 'Shop app id (shop)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l shop-path -d 'Shop page path (shop)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l qwhk-url -d 'Work-chat acquisition URL (workchat-url)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l avatar -d 'Avatar image URL' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l guide-text -d 'A line guiding the visitor' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l desc -d 'Longer text on the page' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l sub-title -d 'Line under the heading (at most 20 characters; shown with --show-type small)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l show-type -d 'Image layout' -r -f -a "small\t'1: a small image (the QR code) with the sub-title'
long\t'2: a long image across the page'"
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l template -d 'Jump-page template id (see linkapi template list)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l scan-tips -d 'Show a hint on how to scan (0 or 1)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l rotation -d 'How visits pick a channel' -r -f -a "sort\t'1: in sort order, each until its limit or expiry'
weighted\t'3: weighted random by ratio'
round-robin\t'4: round robin'
uniform\t'5: uniform random'"
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l cap -d 'What channel limits cap' -r -f -a "total\t'1: visits ever'
daily\t'2: visits per day'"
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l channel -d 'Add a channel with this QR image URL (repeatable; sort order as given). Use --from-file for limits, ratios and expiry' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l expires -d 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l group -d 'Group id (a group of chain type 2)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l code -d 'Take CHAIN as a code even when it is all digits'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l direct-jump -d 'Jump straight to the destination instead of showing the page'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l page -d 'Show the page (undoes --direct-jump on edit)'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from edit" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from delete" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from delete" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from delete" -l code -d 'Take every CHAIN as a code'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from delete" -s y -l yes -d 'Do not ask for confirmation'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from delete" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from help" -f -a "create" -d 'Create a messaging-app chain'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from help" -f -a "list" -d 'List your messaging-app chains, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from help" -f -a "info" -d 'Show one chain and its channels'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from help" -f -a "edit" -d 'Change a chain\'s fields and channels'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete messaging-app chains'
complete -c linkapi -n "__fish_linkapi_using_subcommand wx; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and not __fish_seen_subcommand_from list create help" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and not __fish_seen_subcommand_from list create help" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and not __fish_seen_subcommand_from list create help" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and not __fish_seen_subcommand_from list create help" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and not __fish_seen_subcommand_from list create help" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and not __fish_seen_subcommand_from list create help" -f -a "list" -d 'Your card chains (at most 100, newest first)'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and not __fish_seen_subcommand_from list create help" -f -a "create" -d 'Create a chain in the card namespace (always the generic page: no --template)'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and not __fish_seen_subcommand_from list create help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from list" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from list" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from list" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from list" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l from-file -d 'Full input as JSON (the body of POST /wx-chains, channel_list included), or - for standard input; flags override its fields' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l title -d 'Label' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l sub-type -d 'Where the chain leads [default on create: scan-qr]' -r -f -a "scan-qr\t'1: a QR code to scan (--qr-url or --channel)'
account\t'2: an account ID to add (--wx-id)'
mini-program\t'3: a mini-program (--mini-appid, --mini-path)'
shop\t'4: a shop (--shop-appid, --shop-path)'
workchat-url\t'5: a work-chat acquisition URL (--qwhk-url)'"
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l qr-url -d 'The chain\'s own QR image URL (scan-qr)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l wx-id -d 'Account ID (account)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l mini-appid -d 'Mini-program app id (mini-program)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l mini-path -d 'Mini-program page path (mini-program)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l shop-appid -d 'Shop app id (shop)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l shop-path -d 'Shop page path (shop)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l qwhk-url -d 'Work-chat acquisition URL (workchat-url)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l avatar -d 'Avatar image URL' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l guide-text -d 'A line guiding the visitor' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l desc -d 'Longer text on the page' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l sub-title -d 'Line under the heading (at most 20 characters; shown with --show-type small)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l show-type -d 'Image layout' -r -f -a "small\t'1: a small image (the QR code) with the sub-title'
long\t'2: a long image across the page'"
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l template -d 'Jump-page template id (see linkapi template list)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l scan-tips -d 'Show a hint on how to scan (0 or 1)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l rotation -d 'How visits pick a channel' -r -f -a "sort\t'1: in sort order, each until its limit or expiry'
weighted\t'3: weighted random by ratio'
round-robin\t'4: round robin'
uniform\t'5: uniform random'"
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l cap -d 'What channel limits cap' -r -f -a "total\t'1: visits ever'
daily\t'2: visits per day'"
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l channel -d 'Add a channel with this QR image URL (repeatable; sort order as given). Use --from-file for limits, ratios and expiry' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l expires -d 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l group -d 'Group id (a group of chain type 2)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l code -d 'Custom code instead of a random one' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l domain -d 'Domain id [default: the server\'s default domain]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l direct-jump -d 'Jump straight to the destination instead of showing the page'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l page -d 'Show the page (undoes --direct-jump on edit)'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from help" -f -a "list" -d 'Your card chains (at most 100, newest first)'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from help" -f -a "create" -d 'Create a chain in the card namespace (always the generic page: no --template)'
complete -c linkapi -n "__fish_linkapi_using_subcommand card; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and not __fish_seen_subcommand_from create edit info list delete assemblies transfers help" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and not __fish_seen_subcommand_from create edit info list delete assemblies transfers help" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and not __fish_seen_subcommand_from create edit info list delete assemblies transfers help" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and not __fish_seen_subcommand_from create edit info list delete assemblies transfers help" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and not __fish_seen_subcommand_from create edit info list delete assemblies transfers help" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and not __fish_seen_subcommand_from create edit info list delete assemblies transfers help" -f -a "create" -d 'Create a work-chat chain'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and not __fish_seen_subcommand_from create edit info list delete assemblies transfers help" -f -a "edit" -d 'Change a work-chat chain'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and not __fish_seen_subcommand_from create edit info list delete assemblies transfers help" -f -a "info" -d 'Show a work-chat chain'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and not __fish_seen_subcommand_from create edit info list delete assemblies transfers help" -f -a "list" -d 'List your work-chat chains, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and not __fish_seen_subcommand_from create edit info list delete assemblies transfers help" -f -a "delete" -d 'Delete work-chat chains'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and not __fish_seen_subcommand_from create edit info list delete assemblies transfers help" -f -a "assemblies" -d 'Your assembly list: the acquisition links work-chat chains may lead to'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and not __fish_seen_subcommand_from create edit info list delete assemblies transfers help" -f -a "transfers" -d 'Customer-ownership transfer results of a corp'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and not __fish_seen_subcommand_from create edit info list delete assemblies transfers help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -l customer -d 'An entry of your assembly list (wxwork_type 1; see linkapi workchat assemblies)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -l url -d 'A work-chat URL (wxwork_type 2)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -l title -d 'Label' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -l template -d 'Jump-page template id' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -l group -d 'Group id (a group of chain type 3)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -l expires -d 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -l code -d 'Custom code instead of a random one' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -l domain -d 'Domain id [default: the server\'s default domain]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -l direct-jump -d 'Jump straight to the destination instead of showing the page'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -l page -d 'Show the page (undoes --direct-jump on edit)'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from create" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from edit" -l channel -d 'The channel whose URL changes [default: the chain\'s only one]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from edit" -l customer -d 'An entry of your assembly list (wxwork_type 1; see linkapi workchat assemblies)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from edit" -l url -d 'A work-chat URL (wxwork_type 2)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from edit" -l title -d 'Label' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from edit" -l template -d 'Jump-page template id' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from edit" -l group -d 'Group id (a group of chain type 3)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from edit" -l expires -d 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from edit" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from edit" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from edit" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from edit" -l direct-jump -d 'Jump straight to the destination instead of showing the page'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from edit" -l page -d 'Show the page (undoes --direct-jump on edit)'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from edit" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from edit" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from edit" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from info" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from info" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from info" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from info" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from info" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from info" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from list" -l page -d 'Page to show' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from list" -l limit -d 'Chains per page (1 to 100) [default: 20]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from list" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from list" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from list" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from list" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from delete" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from delete" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from delete" -l code -d 'Take every CHAIN as a code'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from delete" -s y -l yes -d 'Do not ask for confirmation'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from delete" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from assemblies" -l page -d 'Page to show' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from assemblies" -l limit -d 'Entries per page (at most 100)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from assemblies" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from assemblies" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from assemblies" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from assemblies" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from assemblies" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from assemblies" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from transfers" -l corp -d 'The corp id' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from transfers" -l handover -d 'Only transfers from this work-chat user' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from transfers" -l takeover -d 'Only transfers to this work-chat user' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from transfers" -l cursor -d 'Start at this cursor (a next_cursor printed before)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from transfers" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from transfers" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from transfers" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from transfers" -l all -d 'Follow the cursor to the end'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from transfers" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from transfers" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from transfers" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from help" -f -a "create" -d 'Create a work-chat chain'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from help" -f -a "edit" -d 'Change a work-chat chain'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from help" -f -a "info" -d 'Show a work-chat chain'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from help" -f -a "list" -d 'List your work-chat chains, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete work-chat chains'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from help" -f -a "assemblies" -d 'Your assembly list: the acquisition links work-chat chains may lead to'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from help" -f -a "transfers" -d 'Customer-ownership transfer results of a corp'
complete -c linkapi -n "__fish_linkapi_using_subcommand workchat; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and not __fish_seen_subcommand_from report list help" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and not __fish_seen_subcommand_from report list help" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and not __fish_seen_subcommand_from report list help" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and not __fish_seen_subcommand_from report list help" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and not __fish_seen_subcommand_from report list help" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and not __fish_seen_subcommand_from report list help" -f -a "report" -d 'Report a conversion; a repeat of the same chain, type and out id is recognised as a duplicate and not recorded twice'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and not __fish_seen_subcommand_from report list help" -f -a "list" -d 'List the conversions recorded for a chain, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and not __fish_seen_subcommand_from report list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from report" -l domain -d 'Domain id, when you have the code on several domains' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from report" -l type -d 'Business event: lower-case letters, digits and _ (purchase, signup, form, ...)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from report" -l out-id -d 'Your idempotency token (required for purchase)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from report" -l ad-platform -d 'Ad platform the conversion came from (a path segment of the API)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from report" -l clickid -d 'Ad-click attribution id' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from report" -l external-user -d 'Your own user id of the converting customer' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from report" -l value-cents -d 'Value in cents' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from report" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from report" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from report" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from report" -l code -d 'Take CHAIN as a code even when it is all digits'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from report" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from report" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from report" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from list" -l domain -d 'Domain id, when you have the code on several domains' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from list" -l page -d 'Page to show' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from list" -l limit -d 'Conversions per page (1 to 100)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from list" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from list" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from list" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from list" -l code -d 'Take CHAIN as a code even when it is all digits'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from list" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from help" -f -a "report" -d 'Report a conversion; a repeat of the same chain, type and out id is recognised as a duplicate and not recorded twice'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the conversions recorded for a chain, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand conversion; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and not __fish_seen_subcommand_from list help" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and not __fish_seen_subcommand_from list help" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and not __fish_seen_subcommand_from list help" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and not __fish_seen_subcommand_from list help" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and not __fish_seen_subcommand_from list help" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and not __fish_seen_subcommand_from list help" -f -a "list" -d 'List the templates offered to you, and which your chains use'
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and not __fish_seen_subcommand_from list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and __fish_seen_subcommand_from list" -l page -d 'Page to show' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and __fish_seen_subcommand_from list" -l limit -d 'Templates per page (at most 100)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and __fish_seen_subcommand_from list" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and __fish_seen_subcommand_from list" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and __fish_seen_subcommand_from list" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and __fish_seen_subcommand_from list" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the templates offered to you, and which your chains use'
complete -c linkapi -n "__fish_linkapi_using_subcommand template; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and not __fish_seen_subcommand_from add list info edit delete test rotate-secret deliveries listen help" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and not __fish_seen_subcommand_from add list info edit delete test rotate-secret deliveries listen help" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and not __fish_seen_subcommand_from add list info edit delete test rotate-secret deliveries listen help" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and not __fish_seen_subcommand_from add list info edit delete test rotate-secret deliveries listen help" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and not __fish_seen_subcommand_from add list info edit delete test rotate-secret deliveries listen help" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and not __fish_seen_subcommand_from add list info edit delete test rotate-secret deliveries listen help" -f -a "add" -d 'Register an endpoint for events of your writes; prints its signing secret once'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and not __fish_seen_subcommand_from add list info edit delete test rotate-secret deliveries listen help" -f -a "list" -d 'List your endpoints'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and not __fish_seen_subcommand_from add list info edit delete test rotate-secret deliveries listen help" -f -a "info" -d 'Show one endpoint'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and not __fish_seen_subcommand_from add list info edit delete test rotate-secret deliveries listen help" -f -a "edit" -d 'Change an endpoint\'s URL, events or description, or turn it off and on'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and not __fish_seen_subcommand_from add list info edit delete test rotate-secret deliveries listen help" -f -a "delete" -d 'Delete an endpoint, its pending deliveries and its history'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and not __fish_seen_subcommand_from add list info edit delete test rotate-secret deliveries listen help" -f -a "test" -d 'Send a webhook.test event to an endpoint'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and not __fish_seen_subcommand_from add list info edit delete test rotate-secret deliveries listen help" -f -a "rotate-secret" -d 'Give an endpoint a new signing secret; the old one keeps signing for 24 hours'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and not __fish_seen_subcommand_from add list info edit delete test rotate-secret deliveries listen help" -f -a "deliveries" -d 'List the attempts to deliver to an endpoint, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and not __fish_seen_subcommand_from add list info edit delete test rotate-secret deliveries listen help" -f -a "listen" -d 'Receive webhooks locally and print them as they arrive, checking their signatures'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and not __fish_seen_subcommand_from add list info edit delete test rotate-secret deliveries listen help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from add" -l events -d 'Events to send, comma-separated' -r -f -a "chain.created\t'A chain was created'
chain.updated\t'A chain was edited'
chain.deleted\t'A chain was deleted'
conversion.created\t'A conversion was recorded'
channel.exhausted\t'A channel reached its visit limit'
upload.created\t'An image was uploaded'"
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from add" -l description -d 'A note on what the endpoint is for' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from add" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from add" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from add" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from add" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from list" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from list" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from list" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from list" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from info" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from info" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from info" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from info" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from info" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from info" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from edit" -l url -d 'A new URL' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from edit" -l events -d 'New events, replacing the old, comma-separated' -r -f -a "chain.created\t'A chain was created'
chain.updated\t'A chain was edited'
chain.deleted\t'A chain was deleted'
conversion.created\t'A conversion was recorded'
channel.exhausted\t'A channel reached its visit limit'
upload.created\t'An image was uploaded'"
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from edit" -l description -d 'A new note; "" clears it' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from edit" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from edit" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from edit" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from edit" -l enable -d 'Send events again'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from edit" -l disable -d 'Send no events (and drop those not yet delivered)'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from edit" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from edit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from edit" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from delete" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from delete" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from delete" -s y -l yes -d 'Do not ask for confirmation'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from delete" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from test" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from test" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from test" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from test" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from test" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from rotate-secret" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from rotate-secret" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from rotate-secret" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from rotate-secret" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from rotate-secret" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from rotate-secret" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from deliveries" -l page -d 'Page, from 1' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from deliveries" -l limit -d 'Attempts per page (at most 100)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from deliveries" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from deliveries" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from deliveries" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from deliveries" -l failed -d 'Only attempts that were not answered 2xx'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from deliveries" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from deliveries" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from deliveries" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from listen" -l port -d 'Port to listen on, on 127.0.0.1' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from listen" -l secret -d 'The endpoint\'s signing secret; without one nothing is verified' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from listen" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from listen" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from listen" -l json -d 'Print each event\'s body as one JSON line, nothing else'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from listen" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from listen" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from listen" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from help" -f -a "add" -d 'Register an endpoint for events of your writes; prints its signing secret once'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from help" -f -a "list" -d 'List your endpoints'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from help" -f -a "info" -d 'Show one endpoint'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from help" -f -a "edit" -d 'Change an endpoint\'s URL, events or description, or turn it off and on'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete an endpoint, its pending deliveries and its history'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from help" -f -a "test" -d 'Send a webhook.test event to an endpoint'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from help" -f -a "rotate-secret" -d 'Give an endpoint a new signing secret; the old one keeps signing for 24 hours'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from help" -f -a "deliveries" -d 'List the attempts to deliver to an endpoint, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from help" -f -a "listen" -d 'Receive webhooks locally and print them as they arrive, checking their signatures'
complete -c linkapi -n "__fish_linkapi_using_subcommand webhook; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and not __fish_seen_subcommand_from list delete help" -l dir -d 'Upload every file in this directory' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and not __fish_seen_subcommand_from list delete help" -l jobs -d 'Files uploaded at once (1 to 32)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and not __fish_seen_subcommand_from list delete help" -l max-size -d 'Largest file to send, in bytes (the server\'s default cap)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and not __fish_seen_subcommand_from list delete help" -l tries -d 'Tries per file on 429, 503 and connection errors (1 to 10)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and not __fish_seen_subcommand_from list delete help" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and not __fish_seen_subcommand_from list delete help" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and not __fish_seen_subcommand_from list delete help" -l recursive -d 'With --dir, descend into subdirectories too'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and not __fish_seen_subcommand_from list delete help" -l json -d 'Print each file\'s result as a line of JSON: file, ok, and url or error'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and not __fish_seen_subcommand_from list delete help" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and not __fish_seen_subcommand_from list delete help" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and not __fish_seen_subcommand_from list delete help" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and not __fish_seen_subcommand_from list delete help" -a "list" -d 'List your uploads, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and not __fish_seen_subcommand_from list delete help" -a "delete" -d 'Delete uploads by id; the bytes go when no upload of anyone names them'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and not __fish_seen_subcommand_from list delete help" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from list" -l page -d 'Page to show' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from list" -l limit -d 'Uploads per page (at most 100)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from list" -l json -d 'Print JSON; with =FIELDS (comma-separated) only those fields' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from list" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from list" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from list" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from delete" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from delete" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from delete" -s y -l yes -d 'Do not ask for confirmation'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from delete" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from help" -f -a "list" -d 'List your uploads, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete uploads by id; the bytes go when no upload of anyone names them'
complete -c linkapi -n "__fish_linkapi_using_subcommand upload; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and not __fish_seen_subcommand_from user key domain template workchat rotate-visitor-secret help" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and not __fish_seen_subcommand_from user key domain template workchat rotate-visitor-secret help" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and not __fish_seen_subcommand_from user key domain template workchat rotate-visitor-secret help" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and not __fish_seen_subcommand_from user key domain template workchat rotate-visitor-secret help" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and not __fish_seen_subcommand_from user key domain template workchat rotate-visitor-secret help" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and not __fish_seen_subcommand_from user key domain template workchat rotate-visitor-secret help" -f -a "user" -d 'Users'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and not __fish_seen_subcommand_from user key domain template workchat rotate-visitor-secret help" -f -a "key" -d 'API keys'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and not __fish_seen_subcommand_from user key domain template workchat rotate-visitor-secret help" -f -a "domain" -d 'Domains'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and not __fish_seen_subcommand_from user key domain template workchat rotate-visitor-secret help" -f -a "template" -d 'Jump-page templates: add, list, edit and retire custom ones'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and not __fish_seen_subcommand_from user key domain template workchat rotate-visitor-secret help" -f -a "workchat" -d 'Work-chat data: users\' assembly lists and transfer records'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and not __fish_seen_subcommand_from user key domain template workchat rotate-visitor-secret help" -f -a "rotate-visitor-secret" -d 'Count visitors with a new secret from now on (a visitor seen before counts once more as unique)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and not __fish_seen_subcommand_from user key domain template workchat rotate-visitor-secret help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from user" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from user" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from user" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from user" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from user" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from user" -f -a "create" -d 'Create a user'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from user" -f -a "list" -d 'List users'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from user" -f -a "show" -d 'Show a user and what they use: chains, chains created today, uploads, keys'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from user" -f -a "edit" -d 'Rename a user or change their daily quota'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from user" -f -a "suspend" -d 'Suspend a user: every key of theirs is refused at once, on every instance'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from user" -f -a "resume" -d 'Resume a suspended user: their keys and redirects work again'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from user" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from key" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from key" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from key" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from key" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from key" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from key" -f -a "create" -d 'Create a key; its secret is printed this once'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from key" -f -a "list" -d 'List keys (never their secrets)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from key" -f -a "revoke" -d 'Revoke a key at once'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from key" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from domain" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from domain" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from domain" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from domain" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from domain" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from domain" -f -a "create" -d 'Register a domain (point its DNS at the server first)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from domain" -f -a "list" -d 'List every domain'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from domain" -f -a "set-status" -d 'Switch a domain on (its links serve) or off (they answer 404)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from domain" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from template" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from template" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from template" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from template" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from template" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from template" -f -a "add" -d 'Add a custom template'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from template" -f -a "list" -d 'List every template, retired ones included'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from template" -f -a "edit" -d 'Change a custom template'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from template" -f -a "retire" -d 'Retire a custom template: no longer offered; chains that use it keep it'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from template" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from workchat" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from workchat" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from workchat" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from workchat" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from workchat" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from workchat" -f -a "add-assembly" -d 'Add an acquisition link to a user\'s assembly list (or change the one with its link id)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from workchat" -f -a "assemblies" -d 'A user\'s assembly list'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from workchat" -f -a "load-transfers" -d 'Load transfer records from a file: a JSON array or JSON lines of {external_userid, name, status, takeover_time, errcode, reason}'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from workchat" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from rotate-visitor-secret" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from rotate-visitor-secret" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from rotate-visitor-secret" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from rotate-visitor-secret" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from rotate-visitor-secret" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from help" -f -a "user" -d 'Users'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from help" -f -a "key" -d 'API keys'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from help" -f -a "domain" -d 'Domains'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from help" -f -a "template" -d 'Jump-page templates: add, list, edit and retire custom ones'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from help" -f -a "workchat" -d 'Work-chat data: users\' assembly lists and transfer records'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from help" -f -a "rotate-visitor-secret" -d 'Count visitors with a new secret from now on (a visitor seen before counts once more as unique)'
complete -c linkapi -n "__fish_linkapi_using_subcommand admin; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand serve" -l listen -d 'Address to listen on [default: 127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand serve" -l data-dir -d 'Directory of the SQLite database and uploads [default: the user\'s data directory]' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand serve" -l database-url -d 'PostgreSQL database to use instead of the SQLite file, shared by every instance: postgres://user:password@host:port/db (add ?sslmode=require for TLS)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand serve" -l public-url -d 'Public base URL of short links, as scheme://host or scheme://host:port [default: http://ADDR]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand serve" -l config -d 'TOML configuration file; flags override its values' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand serve" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand serve" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand serve" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand serve" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand serve" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and not __fish_seen_subcommand_from backup restore migrate admin-key help" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and not __fish_seen_subcommand_from backup restore migrate admin-key help" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and not __fish_seen_subcommand_from backup restore migrate admin-key help" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and not __fish_seen_subcommand_from backup restore migrate admin-key help" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and not __fish_seen_subcommand_from backup restore migrate admin-key help" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and not __fish_seen_subcommand_from backup restore migrate admin-key help" -f -a "backup" -d 'Write a consistent snapshot of the SQLite database, while the server runs'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and not __fish_seen_subcommand_from backup restore migrate admin-key help" -f -a "restore" -d 'Put a backup in place of the SQLite database (stop the server first)'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and not __fish_seen_subcommand_from backup restore migrate admin-key help" -f -a "migrate" -d 'Copy a SQLite deployment\'s database into PostgreSQL (stop the server first)'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and not __fish_seen_subcommand_from backup restore migrate admin-key help" -f -a "admin-key" -d 'Make a new admin key (scope *) for the first user, when every other is lost'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and not __fish_seen_subcommand_from backup restore migrate admin-key help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from backup" -l data-dir -d 'Data directory of the deployment [default: the configuration file\'s, else the user\'s data directory]' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from backup" -l config -d 'TOML configuration file of the deployment' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from backup" -l database-url -d 'PostgreSQL database of the deployment: `admin-key` makes its key there; `backup` and `restore` refuse it (PostgreSQL has its own tools)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from backup" -l to -d 'File to write the snapshot to; must not exist' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from backup" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from backup" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from backup" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from backup" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from backup" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from restore" -l data-dir -d 'Data directory of the deployment [default: the configuration file\'s, else the user\'s data directory]' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from restore" -l config -d 'TOML configuration file of the deployment' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from restore" -l database-url -d 'PostgreSQL database of the deployment: `admin-key` makes its key there; `backup` and `restore` refuse it (PostgreSQL has its own tools)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from restore" -l from -d 'The backup to put in place' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from restore" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from restore" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from restore" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from restore" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from restore" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from migrate" -l from -d 'The SQLite database to copy, as sqlite:PATH (the database file or its data directory)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from migrate" -l to -d 'The PostgreSQL database to copy into: postgres://user:password@host:port/db' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from migrate" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from migrate" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from migrate" -l replace -d 'Replace whatever the target holds (by default a target with data is refused)'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from migrate" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from migrate" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from migrate" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from admin-key" -l data-dir -d 'Data directory of the deployment [default: the configuration file\'s, else the user\'s data directory]' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from admin-key" -l config -d 'TOML configuration file of the deployment' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from admin-key" -l database-url -d 'PostgreSQL database of the deployment: `admin-key` makes its key there; `backup` and `restore` refuse it (PostgreSQL has its own tools)' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from admin-key" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from admin-key" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from admin-key" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from admin-key" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from admin-key" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from help" -f -a "backup" -d 'Write a consistent snapshot of the SQLite database, while the server runs'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from help" -f -a "restore" -d 'Put a backup in place of the SQLite database (stop the server first)'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from help" -f -a "migrate" -d 'Copy a SQLite deployment\'s database into PostgreSQL (stop the server first)'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from help" -f -a "admin-key" -d 'Make a new admin key (scope *) for the first user, when every other is lost'
complete -c linkapi -n "__fish_linkapi_using_subcommand data; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand completions" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand completions" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand completions" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c linkapi -n "__fish_linkapi_using_subcommand completions" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand man" -l out-dir -d 'Write linkapi.1 and one page per subcommand here instead of printing linkapi.1' -r -F
complete -c linkapi -n "__fish_linkapi_using_subcommand man" -l host -d 'Server URL [default: the profile\'s host, else http://127.0.0.1:8080]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand man" -l profile -d 'Profile: a named server and key [default: config.toml\'s default_profile, else "default"]' -r
complete -c linkapi -n "__fish_linkapi_using_subcommand man" -l no-input -d 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
complete -c linkapi -n "__fish_linkapi_using_subcommand man" -s h -l help -d 'Print help'
complete -c linkapi -n "__fish_linkapi_using_subcommand man" -s V -l version -d 'Print version'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "auth" -d 'Log in to a server, see where keys come from, log out'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "chain" -d 'Create, list, inspect, edit and delete short links'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "group" -d 'Create and list groups of chains'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "domain" -d 'List the domains you may create chains on'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "stats" -d 'Show visits: a chain\'s totals and daily trend, where they came from, or your top chains'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "wx" -d 'Messaging-app chains: QR codes that rotate, account IDs, mini-programs, shops'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "card" -d 'Card chains: messaging-app chains in the card namespace'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "workchat" -d 'Work-chat chains, your assembly list and customer-transfer results'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "conversion" -d 'Report ad conversions for a chain and list what was recorded'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "template" -d 'List the jump-page templates you may use'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "webhook" -d 'Send events of your writes to your own endpoints, and receive them locally'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "upload" -d 'Upload images (many at once, with progress bars), list and delete uploads'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "admin" -d 'Manage users, API keys and domains (needs a key with scope admin)'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "serve" -d 'Run the server locally (same flags as linkapi-server)'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "data" -d 'Back up, restore, or move to PostgreSQL the data of a local server (same as linkapi-server\'s commands)'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "completions" -d 'Print a shell completion script'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "man" -d 'Print the manual page, or write every page into a directory'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and not __fish_seen_subcommand_from auth chain group domain stats wx card workchat conversion template webhook upload admin serve data completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "login" -d 'Store an API key for a server, checked against the server first'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "status" -d 'Show each profile\'s server, where its key comes from, and whether the key works'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "logout" -d 'Forget the stored key of the profile (the key itself stays valid on the server)'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "token" -d 'Print the key the current profile would use'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from chain" -f -a "create" -d 'Create a short link'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from chain" -f -a "import" -d 'Create many chains from CSV or JSON lines, one chain per line'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from chain" -f -a "list" -d 'List your short links, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from chain" -f -a "info" -d 'Show one chain'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from chain" -f -a "qr" -d 'Show a chain\'s QR code in the terminal, or write it as PNG or SVG'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from chain" -f -a "edit" -d 'Change a chain\'s title, destination, expiry or redirect rules'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from chain" -f -a "delete" -d 'Delete chains (their codes are never reused)'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from group" -f -a "create" -d 'Create a group'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from group" -f -a "list" -d 'List your groups'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from group" -f -a "info" -d 'Show one of your groups: its name, kind and live chains'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from domain" -f -a "list" -d 'List the domains you may use'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from wx" -f -a "create" -d 'Create a messaging-app chain'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from wx" -f -a "list" -d 'List your messaging-app chains, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from wx" -f -a "info" -d 'Show one chain and its channels'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from wx" -f -a "edit" -d 'Change a chain\'s fields and channels'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from wx" -f -a "delete" -d 'Delete messaging-app chains'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from card" -f -a "list" -d 'Your card chains (at most 100, newest first)'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from card" -f -a "create" -d 'Create a chain in the card namespace (always the generic page: no --template)'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from workchat" -f -a "create" -d 'Create a work-chat chain'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from workchat" -f -a "edit" -d 'Change a work-chat chain'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from workchat" -f -a "info" -d 'Show a work-chat chain'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from workchat" -f -a "list" -d 'List your work-chat chains, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from workchat" -f -a "delete" -d 'Delete work-chat chains'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from workchat" -f -a "assemblies" -d 'Your assembly list: the acquisition links work-chat chains may lead to'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from workchat" -f -a "transfers" -d 'Customer-ownership transfer results of a corp'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from conversion" -f -a "report" -d 'Report a conversion; a repeat of the same chain, type and out id is recognised as a duplicate and not recorded twice'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from conversion" -f -a "list" -d 'List the conversions recorded for a chain, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from template" -f -a "list" -d 'List the templates offered to you, and which your chains use'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from webhook" -f -a "add" -d 'Register an endpoint for events of your writes; prints its signing secret once'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from webhook" -f -a "list" -d 'List your endpoints'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from webhook" -f -a "info" -d 'Show one endpoint'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from webhook" -f -a "edit" -d 'Change an endpoint\'s URL, events or description, or turn it off and on'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from webhook" -f -a "delete" -d 'Delete an endpoint, its pending deliveries and its history'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from webhook" -f -a "test" -d 'Send a webhook.test event to an endpoint'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from webhook" -f -a "rotate-secret" -d 'Give an endpoint a new signing secret; the old one keeps signing for 24 hours'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from webhook" -f -a "deliveries" -d 'List the attempts to deliver to an endpoint, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from webhook" -f -a "listen" -d 'Receive webhooks locally and print them as they arrive, checking their signatures'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from upload" -f -a "list" -d 'List your uploads, newest first'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from upload" -f -a "delete" -d 'Delete uploads by id; the bytes go when no upload of anyone names them'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from admin" -f -a "user" -d 'Users'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from admin" -f -a "key" -d 'API keys'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from admin" -f -a "domain" -d 'Domains'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from admin" -f -a "template" -d 'Jump-page templates: add, list, edit and retire custom ones'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from admin" -f -a "workchat" -d 'Work-chat data: users\' assembly lists and transfer records'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from admin" -f -a "rotate-visitor-secret" -d 'Count visitors with a new secret from now on (a visitor seen before counts once more as unique)'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from data" -f -a "backup" -d 'Write a consistent snapshot of the SQLite database, while the server runs'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from data" -f -a "restore" -d 'Put a backup in place of the SQLite database (stop the server first)'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from data" -f -a "migrate" -d 'Copy a SQLite deployment\'s database into PostgreSQL (stop the server first)'
complete -c linkapi -n "__fish_linkapi_using_subcommand help; and __fish_seen_subcommand_from data" -f -a "admin-key" -d 'Make a new admin key (scope *) for the first user, when every other is lost'
