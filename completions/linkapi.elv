
use builtin;
use str;

set edit:completion:arg-completer[linkapi] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'linkapi'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'linkapi'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand auth 'Log in to a server, see where keys come from, log out'
            cand chain 'Create, list, inspect, edit and delete short links'
            cand group 'Create and list groups of chains'
            cand domain 'List the domains you may create chains on'
            cand stats 'Show visits: a chain''s totals and daily trend, where they came from, or your top chains'
            cand import 'Bring your links over from chhoto-url, Kutt, YOURLS, Shlink, Bitly or a linkapi export'
            cand wx 'Messaging-app chains: QR codes that rotate, account IDs, mini-programs, shops'
            cand card 'Card chains: messaging-app chains in the card namespace'
            cand workchat 'Work-chat chains, your assembly list and customer-transfer results'
            cand conversion 'Report ad conversions for a chain and list what was recorded'
            cand template 'List the jump-page templates you may use'
            cand webhook 'Send events of your writes to your own endpoints, and receive them locally'
            cand upload 'Upload images (many at once, with progress bars), list and delete uploads'
            cand admin 'Manage users, API keys and domains (needs a key with scope admin)'
            cand serve 'Run the server locally (same flags as linkapi-server)'
            cand data 'Back up, restore, or move to PostgreSQL the data of a local server (same as linkapi-server''s commands)'
            cand completions 'Print a shell completion script'
            cand man 'Print the manual page, or write every page into a directory'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;auth'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand login 'Store an API key for a server, checked against the server first'
            cand status 'Show each profile''s server, where its key comes from, and whether the key works'
            cand logout 'Forget the stored key of the profile (the key itself stays valid on the server)'
            cand token 'Print the key the current profile would use'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;auth;login'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --with-key 'Read the key from standard input'
            cand --insecure-storage 'Store the key in credentials.toml (mode 0600) instead of the OS keyring'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;auth;status'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --show-key 'Show keys in full instead of masked'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;auth;logout'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;auth;token'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;auth;help'= {
            cand login 'Store an API key for a server, checked against the server first'
            cand status 'Show each profile''s server, where its key comes from, and whether the key works'
            cand logout 'Forget the stored key of the profile (the key itself stays valid on the server)'
            cand token 'Print the key the current profile would use'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;auth;help;login'= {
        }
        &'linkapi;auth;help;status'= {
        }
        &'linkapi;auth;help;logout'= {
        }
        &'linkapi;auth;help;token'= {
        }
        &'linkapi;auth;help;help'= {
        }
        &'linkapi;chain'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Create a short link'
            cand import 'Create many chains from CSV or JSON lines, one chain per line'
            cand export 'Write all your short links, with what a re-import needs, as JSON lines or CSV'
            cand list 'List your short links, newest first'
            cand info 'Show one chain'
            cand qr 'Show a chain''s QR code in the terminal, or write it as PNG or SVG'
            cand edit 'Change a chain''s title, destination, expiry, rules, redirect status, start, visit limit or preview'
            cand archive 'Archive a chain: it still redirects, and `chain list` leaves it out'
            cand unarchive 'Bring an archived chain back to `chain list`'
            cand delete 'Delete chains (their codes are never reused)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;chain;create'= {
            cand --title 'Label'
            cand --code 'Custom code instead of a random one'
            cand --domain 'Domain id or host name [default: the server''s default domain]'
            cand --group 'Group id'
            cand --expires 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds [default: never]'
            cand --rule 'A redirect rule, CONDITION[,CONDITION...] => URL, where a condition is device=KIND, country=CC, language=LL or query.NAME=VALUE; repeat for more, first match wins'
            cand --rules-file 'Redirect rules as a JSON array of {device, country, language, query, target_url} (- reads standard input)'
            cand --redirect-status 'The status its redirects answer with: 301, 302, 307 or 308 (0: the server''s default)'
            cand --valid-since 'Start: before it, the link answers as an expired one ("YYYY-MM-DD HH:MM:SS" UTC, RFC 3339, or Unix seconds; 0 none)'
            cand --max-visits 'People''s visits it serves in all, exactly; past them it answers as an expired link (bots take none; 0 unlimited)'
            cand --preview-title 'The title of the card link previews (chat apps, social sites) show; everyone else is redirected ("" removes it)'
            cand --preview-description 'The preview card''s text ("" removes it)'
            cand --preview-image 'The preview card''s image, an http(s) URL ("" removes it)'
            cand --idempotency-key 'The request''s Idempotency-Key (1 to 255 printable ASCII characters) [default: a new random one]'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;chain;import'= {
            cand --format 'Input format [default: from the file extension, else by the first character]'
            cand --idempotency-key 'Prefix of the batches'' Idempotency-Keys, which end in /N for the Nth batch [default: a digest of each batch''s lines]'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --json 'Print each line''s result as a JSON object'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;chain;export'= {
            cand -o 'File to write [default: standard output]'
            cand --output 'File to write [default: standard output]'
            cand --format 'Format [default: from the --output extension, else jsonl]'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;chain;list'= {
            cand --page 'Page to show'
            cand --limit 'Chains per page (1 to 100) [default: 20; with --all, 100]'
            cand --group 'Only chains in this group'
            cand -q 'Only chains whose title or code contains this'
            cand --query 'Only chains whose title or code contains this'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --all 'Every page'
            cand --archived 'Only archived chains (archived chains are otherwise left out)'
            cand --include-archived 'Archived chains too'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;chain;info'= {
            cand --domain 'Domain id or host name, when you have the code on several domains'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --code 'Take CHAIN as a code even when it is all digits'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;chain;qr'= {
            cand --domain 'Domain id or host name, when you have the code on several domains'
            cand -o 'Write the image to this file'
            cand --output 'Write the image to this file'
            cand --format 'Image format [default: from the --output extension, else png]'
            cand --size 'Side of the image in pixels (64 to 2048)'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --code 'Take CHAIN as a code even when it is all digits'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;chain;edit'= {
            cand --domain 'Domain id or host name, when you have the code on several domains'
            cand --title 'New label'
            cand --target-url 'New destination'
            cand --expires 'New expiry (as for create; 0 is never)'
            cand --rule 'A redirect rule, CONDITION[,CONDITION...] => URL, where a condition is device=KIND, country=CC, language=LL or query.NAME=VALUE; repeat for more, first match wins'
            cand --rules-file 'Redirect rules as a JSON array of {device, country, language, query, target_url} (- reads standard input)'
            cand --redirect-status 'The status its redirects answer with: 301, 302, 307 or 308 (0: the server''s default)'
            cand --valid-since 'Start: before it, the link answers as an expired one ("YYYY-MM-DD HH:MM:SS" UTC, RFC 3339, or Unix seconds; 0 none)'
            cand --max-visits 'People''s visits it serves in all, exactly; past them it answers as an expired link (bots take none; 0 unlimited)'
            cand --preview-title 'The title of the card link previews (chat apps, social sites) show; everyone else is redirected ("" removes it)'
            cand --preview-description 'The preview card''s text ("" removes it)'
            cand --preview-image 'The preview card''s image, an http(s) URL ("" removes it)'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --code 'Take CHAIN as a code even when it is all digits'
            cand --clear-rules 'Remove all the chain''s redirect rules'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;chain;archive'= {
            cand --domain 'Domain id or host name, when you have the code on several domains'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --code 'Take CHAIN as a code even when it is all digits'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;chain;unarchive'= {
            cand --domain 'Domain id or host name, when you have the code on several domains'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --code 'Take CHAIN as a code even when it is all digits'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;chain;delete'= {
            cand --domain 'Domain id or host name, when you have the codes on several domains'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --code 'Take every CHAIN as a code'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;chain;help'= {
            cand create 'Create a short link'
            cand import 'Create many chains from CSV or JSON lines, one chain per line'
            cand export 'Write all your short links, with what a re-import needs, as JSON lines or CSV'
            cand list 'List your short links, newest first'
            cand info 'Show one chain'
            cand qr 'Show a chain''s QR code in the terminal, or write it as PNG or SVG'
            cand edit 'Change a chain''s title, destination, expiry, rules, redirect status, start, visit limit or preview'
            cand archive 'Archive a chain: it still redirects, and `chain list` leaves it out'
            cand unarchive 'Bring an archived chain back to `chain list`'
            cand delete 'Delete chains (their codes are never reused)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;chain;help;create'= {
        }
        &'linkapi;chain;help;import'= {
        }
        &'linkapi;chain;help;export'= {
        }
        &'linkapi;chain;help;list'= {
        }
        &'linkapi;chain;help;info'= {
        }
        &'linkapi;chain;help;qr'= {
        }
        &'linkapi;chain;help;edit'= {
        }
        &'linkapi;chain;help;archive'= {
        }
        &'linkapi;chain;help;unarchive'= {
        }
        &'linkapi;chain;help;delete'= {
        }
        &'linkapi;chain;help;help'= {
        }
        &'linkapi;group'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Create a group'
            cand list 'List your groups'
            cand info 'Show one of your groups: its name, kind and live chains'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;group;create'= {
            cand --chain-type 'Kind of chains it holds: 1 short, 2 external, 3 work-chat, 4 card'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;group;list'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;group;info'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;group;help'= {
            cand create 'Create a group'
            cand list 'List your groups'
            cand info 'Show one of your groups: its name, kind and live chains'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;group;help;create'= {
        }
        &'linkapi;group;help;list'= {
        }
        &'linkapi;group;help;info'= {
        }
        &'linkapi;group;help;help'= {
        }
        &'linkapi;domain'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List the domains you may use'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;domain;list'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;domain;help'= {
            cand list 'List the domains you may use'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;domain;help;list'= {
        }
        &'linkapi;domain;help;help'= {
        }
        &'linkapi;stats'= {
            cand --domain 'Domain id or host name, when you have the code on several domains'
            cand --days 'Days counted, today included (1 to 365)'
            cand --by 'Break the chain''s visits down by this'
            cand --limit 'Values (with --by) or chains (without a CHAIN) to list, most visits first (1 to 100)'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --code 'Take CHAIN as a code even when it is all digits'
            cand --orphans 'Requests of every domain that reached no chain (the base URL, unknown codes, other paths), per domain and kind; needs an admin key'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;import'= {
            cand --from 'The shortener the files come from'
            cand --domain 'Put every link on this domain of yours (host name) instead of the peer''s'
            cand --map-domain 'Put the links the peer had on FROM on your domain TO instead (repeatable)'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --dry-run 'Check every link and report what an import would do, importing nothing'
            cand --json 'Print every link''s result as a JSON object'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;wx'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Create a messaging-app chain'
            cand list 'List your messaging-app chains, newest first'
            cand info 'Show one chain and its channels'
            cand qr 'Show a chain''s QR code in the terminal, or write it as PNG or SVG'
            cand edit 'Change a chain''s fields and channels'
            cand delete 'Delete messaging-app chains'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;wx;create'= {
            cand --from-file 'Full input as JSON (the body of POST /wx-chains, channel_list included), or - for standard input; flags override its fields'
            cand --title 'Label'
            cand --sub-type 'Where the chain leads [default on create: scan-qr]'
            cand --qr-url 'The chain''s own QR image URL (scan-qr)'
            cand --wx-id 'Account ID (account)'
            cand --mini-appid 'Mini-program app id (mini-program)'
            cand --mini-path 'Mini-program page path (mini-program)'
            cand --shop-appid 'Shop app id (shop)'
            cand --shop-path 'Shop page path (shop)'
            cand --qwhk-url 'Work-chat acquisition URL (workchat-url)'
            cand --avatar 'Avatar image URL'
            cand --guide-text 'A line guiding the visitor'
            cand --desc 'Longer text on the page'
            cand --sub-title 'Line under the heading (at most 20 characters; shown with --show-type small)'
            cand --show-type 'Image layout'
            cand --template 'Jump-page template id (see linkapi template list)'
            cand --scan-tips 'Show a hint on how to scan (0 or 1)'
            cand --rotation 'How visits pick a channel'
            cand --cap 'What channel limits cap'
            cand --channel 'Add a channel with this QR image URL (repeatable; sort order as given). Use --from-file for limits, ratios and expiry'
            cand --expires 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never'
            cand --group 'Group id (a group of chain type 2)'
            cand --code 'Custom code instead of a random one'
            cand --domain 'Domain id or host name [default: the server''s default domain]'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --direct-jump 'Jump straight to the destination instead of showing the page'
            cand --page 'Show the page (undoes --direct-jump on edit)'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;wx;list'= {
            cand --page 'Page to show'
            cand --limit 'Chains per page (1 to 100) [default: 20; with --all, 100]'
            cand -q 'Only chains whose title or code contains this'
            cand --query 'Only chains whose title or code contains this'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --all 'Every page'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;wx;info'= {
            cand --domain 'Domain id or host name, when you have the code on several domains'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --code 'Take CHAIN as a code even when it is all digits'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;wx;qr'= {
            cand --domain 'Domain id or host name, when you have the code on several domains'
            cand -o 'Write the image to this file'
            cand --output 'Write the image to this file'
            cand --format 'Image format [default: from the --output extension, else png]'
            cand --size 'Side of the image in pixels (64 to 2048)'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --code 'Take CHAIN as a code even when it is all digits'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;wx;edit'= {
            cand --domain 'Domain id or host name, when you have the code on several domains'
            cand --from-file 'Full input as JSON (the body of POST /wx-chains, channel_list included), or - for standard input; flags override its fields'
            cand --title 'Label'
            cand --sub-type 'Where the chain leads [default on create: scan-qr]'
            cand --qr-url 'The chain''s own QR image URL (scan-qr)'
            cand --wx-id 'Account ID (account)'
            cand --mini-appid 'Mini-program app id (mini-program)'
            cand --mini-path 'Mini-program page path (mini-program)'
            cand --shop-appid 'Shop app id (shop)'
            cand --shop-path 'Shop page path (shop)'
            cand --qwhk-url 'Work-chat acquisition URL (workchat-url)'
            cand --avatar 'Avatar image URL'
            cand --guide-text 'A line guiding the visitor'
            cand --desc 'Longer text on the page'
            cand --sub-title 'Line under the heading (at most 20 characters; shown with --show-type small)'
            cand --show-type 'Image layout'
            cand --template 'Jump-page template id (see linkapi template list)'
            cand --scan-tips 'Show a hint on how to scan (0 or 1)'
            cand --rotation 'How visits pick a channel'
            cand --cap 'What channel limits cap'
            cand --channel 'Add a channel with this QR image URL (repeatable; sort order as given). Use --from-file for limits, ratios and expiry'
            cand --expires 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never'
            cand --group 'Group id (a group of chain type 2)'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --code 'Take CHAIN as a code even when it is all digits'
            cand --direct-jump 'Jump straight to the destination instead of showing the page'
            cand --page 'Show the page (undoes --direct-jump on edit)'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;wx;delete'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --code 'Take every CHAIN as a code'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;wx;help'= {
            cand create 'Create a messaging-app chain'
            cand list 'List your messaging-app chains, newest first'
            cand info 'Show one chain and its channels'
            cand qr 'Show a chain''s QR code in the terminal, or write it as PNG or SVG'
            cand edit 'Change a chain''s fields and channels'
            cand delete 'Delete messaging-app chains'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;wx;help;create'= {
        }
        &'linkapi;wx;help;list'= {
        }
        &'linkapi;wx;help;info'= {
        }
        &'linkapi;wx;help;qr'= {
        }
        &'linkapi;wx;help;edit'= {
        }
        &'linkapi;wx;help;delete'= {
        }
        &'linkapi;wx;help;help'= {
        }
        &'linkapi;card'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'Your card chains (at most 100, newest first)'
            cand create 'Create a chain in the card namespace (always the generic page: no --template)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;card;list'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;card;create'= {
            cand --from-file 'Full input as JSON (the body of POST /wx-chains, channel_list included), or - for standard input; flags override its fields'
            cand --title 'Label'
            cand --sub-type 'Where the chain leads [default on create: scan-qr]'
            cand --qr-url 'The chain''s own QR image URL (scan-qr)'
            cand --wx-id 'Account ID (account)'
            cand --mini-appid 'Mini-program app id (mini-program)'
            cand --mini-path 'Mini-program page path (mini-program)'
            cand --shop-appid 'Shop app id (shop)'
            cand --shop-path 'Shop page path (shop)'
            cand --qwhk-url 'Work-chat acquisition URL (workchat-url)'
            cand --avatar 'Avatar image URL'
            cand --guide-text 'A line guiding the visitor'
            cand --desc 'Longer text on the page'
            cand --sub-title 'Line under the heading (at most 20 characters; shown with --show-type small)'
            cand --show-type 'Image layout'
            cand --template 'Jump-page template id (see linkapi template list)'
            cand --scan-tips 'Show a hint on how to scan (0 or 1)'
            cand --rotation 'How visits pick a channel'
            cand --cap 'What channel limits cap'
            cand --channel 'Add a channel with this QR image URL (repeatable; sort order as given). Use --from-file for limits, ratios and expiry'
            cand --expires 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never'
            cand --group 'Group id (a group of chain type 2)'
            cand --code 'Custom code instead of a random one'
            cand --domain 'Domain id or host name [default: the server''s default domain]'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --direct-jump 'Jump straight to the destination instead of showing the page'
            cand --page 'Show the page (undoes --direct-jump on edit)'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;card;help'= {
            cand list 'Your card chains (at most 100, newest first)'
            cand create 'Create a chain in the card namespace (always the generic page: no --template)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;card;help;list'= {
        }
        &'linkapi;card;help;create'= {
        }
        &'linkapi;card;help;help'= {
        }
        &'linkapi;workchat'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Create a work-chat chain'
            cand edit 'Change a work-chat chain'
            cand info 'Show a work-chat chain'
            cand list 'List your work-chat chains, newest first'
            cand delete 'Delete work-chat chains'
            cand assemblies 'Your assembly list: the acquisition links work-chat chains may lead to'
            cand transfers 'Customer-ownership transfer results of a corp'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;workchat;create'= {
            cand --customer 'An entry of your assembly list (wxwork_type 1; see linkapi workchat assemblies)'
            cand --url 'A work-chat URL (wxwork_type 2)'
            cand --title 'Label'
            cand --template 'Jump-page template id'
            cand --group 'Group id (a group of chain type 3)'
            cand --expires 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never'
            cand --code 'Custom code instead of a random one'
            cand --domain 'Domain id or host name [default: the server''s default domain]'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --direct-jump 'Jump straight to the destination instead of showing the page'
            cand --page 'Show the page (undoes --direct-jump on edit)'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;workchat;edit'= {
            cand --channel 'The channel whose URL changes [default: the chain''s only one]'
            cand --customer 'An entry of your assembly list (wxwork_type 1; see linkapi workchat assemblies)'
            cand --url 'A work-chat URL (wxwork_type 2)'
            cand --title 'Label'
            cand --template 'Jump-page template id'
            cand --group 'Group id (a group of chain type 3)'
            cand --expires 'Expiry: "YYYY-MM-DD HH:MM:SS" (UTC), RFC 3339, or Unix seconds; 0 never'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --direct-jump 'Jump straight to the destination instead of showing the page'
            cand --page 'Show the page (undoes --direct-jump on edit)'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;workchat;info'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;workchat;list'= {
            cand --page 'Page to show'
            cand --limit 'Chains per page (1 to 100) [default: 20]'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;workchat;delete'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --code 'Take every CHAIN as a code'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;workchat;assemblies'= {
            cand --page 'Page to show'
            cand --limit 'Entries per page (at most 100)'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;workchat;transfers'= {
            cand --corp 'The corp id'
            cand --handover 'Only transfers from this work-chat user'
            cand --takeover 'Only transfers to this work-chat user'
            cand --cursor 'Start at this cursor (a next_cursor printed before)'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --all 'Follow the cursor to the end'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;workchat;help'= {
            cand create 'Create a work-chat chain'
            cand edit 'Change a work-chat chain'
            cand info 'Show a work-chat chain'
            cand list 'List your work-chat chains, newest first'
            cand delete 'Delete work-chat chains'
            cand assemblies 'Your assembly list: the acquisition links work-chat chains may lead to'
            cand transfers 'Customer-ownership transfer results of a corp'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;workchat;help;create'= {
        }
        &'linkapi;workchat;help;edit'= {
        }
        &'linkapi;workchat;help;info'= {
        }
        &'linkapi;workchat;help;list'= {
        }
        &'linkapi;workchat;help;delete'= {
        }
        &'linkapi;workchat;help;assemblies'= {
        }
        &'linkapi;workchat;help;transfers'= {
        }
        &'linkapi;workchat;help;help'= {
        }
        &'linkapi;conversion'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand report 'Report a conversion; a repeat of the same chain, type and out id is recognised as a duplicate and not recorded twice'
            cand list 'List the conversions recorded for a chain, newest first'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;conversion;report'= {
            cand --domain 'Domain id or host name, when you have the code on several domains'
            cand --type 'Business event: lower-case letters, digits and _ (purchase, signup, form, ...)'
            cand --out-id 'Your idempotency token (required for purchase)'
            cand --ad-platform 'Ad platform the conversion came from (a path segment of the API)'
            cand --clickid 'Ad-click attribution id'
            cand --external-user 'Your own user id of the converting customer'
            cand --value-cents 'Value in cents'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --code 'Take CHAIN as a code even when it is all digits'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;conversion;list'= {
            cand --domain 'Domain id or host name, when you have the code on several domains'
            cand --page 'Page to show'
            cand --limit 'Conversions per page (1 to 100)'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --code 'Take CHAIN as a code even when it is all digits'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;conversion;help'= {
            cand report 'Report a conversion; a repeat of the same chain, type and out id is recognised as a duplicate and not recorded twice'
            cand list 'List the conversions recorded for a chain, newest first'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;conversion;help;report'= {
        }
        &'linkapi;conversion;help;list'= {
        }
        &'linkapi;conversion;help;help'= {
        }
        &'linkapi;template'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List the templates offered to you, and which your chains use'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;template;list'= {
            cand --page 'Page to show'
            cand --limit 'Templates per page (at most 100)'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;template;help'= {
            cand list 'List the templates offered to you, and which your chains use'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;template;help;list'= {
        }
        &'linkapi;template;help;help'= {
        }
        &'linkapi;webhook'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand add 'Register an endpoint for events of your writes; prints its signing secret once'
            cand list 'List your endpoints'
            cand info 'Show one endpoint'
            cand edit 'Change an endpoint''s URL, events or description, or turn it off and on'
            cand delete 'Delete an endpoint, its pending deliveries and its history'
            cand test 'Send a webhook.test event to an endpoint'
            cand rotate-secret 'Give an endpoint a new signing secret; the old one keeps signing for 24 hours'
            cand deliveries 'List the attempts to deliver to an endpoint, newest first'
            cand listen 'Receive webhooks locally and print them as they arrive, checking their signatures'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;webhook;add'= {
            cand --events 'Events to send, comma-separated'
            cand --description 'A note on what the endpoint is for'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;webhook;list'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;webhook;info'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;webhook;edit'= {
            cand --url 'A new URL'
            cand --events 'New events, replacing the old, comma-separated'
            cand --description 'A new note; "" clears it'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --enable 'Send events again'
            cand --disable 'Send no events (and drop those not yet delivered)'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;webhook;delete'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;webhook;test'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;webhook;rotate-secret'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;webhook;deliveries'= {
            cand --page 'Page, from 1'
            cand --limit 'Attempts per page (at most 100)'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --failed 'Only attempts that were not answered 2xx'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;webhook;listen'= {
            cand --port 'Port to listen on, on 127.0.0.1'
            cand --secret 'The endpoint''s signing secret; without one nothing is verified'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --json 'Print each event''s body as one JSON line, nothing else'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;webhook;help'= {
            cand add 'Register an endpoint for events of your writes; prints its signing secret once'
            cand list 'List your endpoints'
            cand info 'Show one endpoint'
            cand edit 'Change an endpoint''s URL, events or description, or turn it off and on'
            cand delete 'Delete an endpoint, its pending deliveries and its history'
            cand test 'Send a webhook.test event to an endpoint'
            cand rotate-secret 'Give an endpoint a new signing secret; the old one keeps signing for 24 hours'
            cand deliveries 'List the attempts to deliver to an endpoint, newest first'
            cand listen 'Receive webhooks locally and print them as they arrive, checking their signatures'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;webhook;help;add'= {
        }
        &'linkapi;webhook;help;list'= {
        }
        &'linkapi;webhook;help;info'= {
        }
        &'linkapi;webhook;help;edit'= {
        }
        &'linkapi;webhook;help;delete'= {
        }
        &'linkapi;webhook;help;test'= {
        }
        &'linkapi;webhook;help;rotate-secret'= {
        }
        &'linkapi;webhook;help;deliveries'= {
        }
        &'linkapi;webhook;help;listen'= {
        }
        &'linkapi;webhook;help;help'= {
        }
        &'linkapi;upload'= {
            cand --dir 'Upload every file in this directory'
            cand --jobs 'Files uploaded at once (1 to 32)'
            cand --max-size 'Largest file to send, in bytes (the server''s default cap)'
            cand --tries 'Tries per file on 429, 503 and connection errors (1 to 10)'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --recursive 'With --dir, descend into subdirectories too'
            cand --json 'Print each file''s result as a line of JSON: file, ok, and url or error'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List your uploads, newest first'
            cand delete 'Delete uploads by id; the bytes go when no upload of anyone names them'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;upload;list'= {
            cand --page 'Page to show'
            cand --limit 'Uploads per page (at most 100)'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;upload;delete'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;upload;help'= {
            cand list 'List your uploads, newest first'
            cand delete 'Delete uploads by id; the bytes go when no upload of anyone names them'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;upload;help;list'= {
        }
        &'linkapi;upload;help;delete'= {
        }
        &'linkapi;upload;help;help'= {
        }
        &'linkapi;admin'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand user 'Users'
            cand key 'API keys'
            cand domain 'Domains'
            cand template 'Jump-page templates: add, list, edit and retire custom ones'
            cand workchat 'Work-chat data: users'' assembly lists and transfer records'
            cand rotate-visitor-secret 'Count visitors with a new secret from now on (a visitor seen before counts once more as unique)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;admin;user'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Create a user'
            cand list 'List users'
            cand show 'Show a user and what they use: chains, chains created today, uploads, keys'
            cand edit 'Rename a user or change their daily quota'
            cand suspend 'Suspend a user: every key of theirs is refused at once, on every instance'
            cand resume 'Resume a suspended user: their keys and redirects work again'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;admin;user;create'= {
            cand --daily-quota 'Chains the user may create per day (in the server''s time zone) [default: the server''s]'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;user;list'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;user;show'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;user;edit'= {
            cand --name 'A new unique name'
            cand --daily-quota 'Chains the user may create per day, or "default" for the server''s'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;user;suspend'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --redirects 'Stop their links'' redirects too'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;user;resume'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;user;help'= {
            cand create 'Create a user'
            cand list 'List users'
            cand show 'Show a user and what they use: chains, chains created today, uploads, keys'
            cand edit 'Rename a user or change their daily quota'
            cand suspend 'Suspend a user: every key of theirs is refused at once, on every instance'
            cand resume 'Resume a suspended user: their keys and redirects work again'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;admin;user;help;create'= {
        }
        &'linkapi;admin;user;help;list'= {
        }
        &'linkapi;admin;user;help;show'= {
        }
        &'linkapi;admin;user;help;edit'= {
        }
        &'linkapi;admin;user;help;suspend'= {
        }
        &'linkapi;admin;user;help;resume'= {
        }
        &'linkapi;admin;user;help;help'= {
        }
        &'linkapi;admin;key'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Create a key; its secret is printed this once'
            cand list 'List keys (never their secrets)'
            cand revoke 'Revoke a key at once'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;admin;key;create'= {
            cand --user 'The user the key acts as'
            cand --scope 'A scope; repeat for more'
            cand --name 'Label'
            cand --expires 'Expiry (as for chain create) [default: never]'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;key;list'= {
            cand --user 'Only this user''s'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;key;revoke'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand -y 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;key;help'= {
            cand create 'Create a key; its secret is printed this once'
            cand list 'List keys (never their secrets)'
            cand revoke 'Revoke a key at once'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;admin;key;help;create'= {
        }
        &'linkapi;admin;key;help;list'= {
        }
        &'linkapi;admin;key;help;revoke'= {
        }
        &'linkapi;admin;key;help;help'= {
        }
        &'linkapi;admin;domain'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand create 'Register a domain (point its DNS at the server first)'
            cand list 'List every domain'
            cand set-status 'Switch a domain on (its links serve) or off (they answer 404)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;admin;domain;create'= {
            cand --scheme 'Scheme of its short links'
            cand --scene 'Label'
            cand --user 'Owner of a private domain [default: you]'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --shared 'Offer it to every user'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;domain;list'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;domain;set-status'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;domain;help'= {
            cand create 'Register a domain (point its DNS at the server first)'
            cand list 'List every domain'
            cand set-status 'Switch a domain on (its links serve) or off (they answer 404)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;admin;domain;help;create'= {
        }
        &'linkapi;admin;domain;help;list'= {
        }
        &'linkapi;admin;domain;help;set-status'= {
        }
        &'linkapi;admin;domain;help;help'= {
        }
        &'linkapi;admin;template'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand add 'Add a custom template'
            cand list 'List every template, retired ones included'
            cand edit 'Change a custom template'
            cand retire 'Retire a custom template: no longer offered; chains that use it keep it'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;admin;template;add'= {
            cand --style 'Built-in layout: generic, card or poster [default: generic]'
            cand --thumb 'Thumbnail URL'
            cand --body-file 'Page source (a minijinja template) read from this file'
            cand --user 'Offer it to this user only [default: everyone]'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;template;list'= {
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;template;edit'= {
            cand --name 'New name'
            cand --style 'New layout'
            cand --thumb 'New thumbnail URL (empty removes it)'
            cand --body-file 'New page source from this file'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;template;retire'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;template;help'= {
            cand add 'Add a custom template'
            cand list 'List every template, retired ones included'
            cand edit 'Change a custom template'
            cand retire 'Retire a custom template: no longer offered; chains that use it keep it'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;admin;template;help;add'= {
        }
        &'linkapi;admin;template;help;list'= {
        }
        &'linkapi;admin;template;help;edit'= {
        }
        &'linkapi;admin;template;help;retire'= {
        }
        &'linkapi;admin;template;help;help'= {
        }
        &'linkapi;admin;workchat'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand add-assembly 'Add an acquisition link to a user''s assembly list (or change the one with its link id)'
            cand assemblies 'A user''s assembly list'
            cand load-transfers 'Load transfer records from a file: a JSON array or JSON lines of {external_userid, name, status, takeover_time, errcode, reason}'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;admin;workchat;add-assembly'= {
            cand --user 'The user whose list it is'
            cand --link-id 'The work-chat''s id of the link'
            cand --name 'Its name'
            cand --url 'The acquisition URL'
            cand --auth-status 'Authorization state, free text'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --invalid 'Mark it invalid: no chain may choose it'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;workchat;assemblies'= {
            cand --user 'The user'
            cand --page 'Page to show'
            cand --limit 'Entries per page (at most 100)'
            cand --json 'Print JSON; with =FIELDS (comma-separated) only those fields'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;workchat;load-transfers'= {
            cand --user 'The user whose data it is'
            cand --corp 'The corp id'
            cand --handover 'The work-chat user handing customers over'
            cand --takeover 'The work-chat user taking them over'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;workchat;help'= {
            cand add-assembly 'Add an acquisition link to a user''s assembly list (or change the one with its link id)'
            cand assemblies 'A user''s assembly list'
            cand load-transfers 'Load transfer records from a file: a JSON array or JSON lines of {external_userid, name, status, takeover_time, errcode, reason}'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;admin;workchat;help;add-assembly'= {
        }
        &'linkapi;admin;workchat;help;assemblies'= {
        }
        &'linkapi;admin;workchat;help;load-transfers'= {
        }
        &'linkapi;admin;workchat;help;help'= {
        }
        &'linkapi;admin;rotate-visitor-secret'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;admin;help'= {
            cand user 'Users'
            cand key 'API keys'
            cand domain 'Domains'
            cand template 'Jump-page templates: add, list, edit and retire custom ones'
            cand workchat 'Work-chat data: users'' assembly lists and transfer records'
            cand rotate-visitor-secret 'Count visitors with a new secret from now on (a visitor seen before counts once more as unique)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;admin;help;user'= {
            cand create 'Create a user'
            cand list 'List users'
            cand show 'Show a user and what they use: chains, chains created today, uploads, keys'
            cand edit 'Rename a user or change their daily quota'
            cand suspend 'Suspend a user: every key of theirs is refused at once, on every instance'
            cand resume 'Resume a suspended user: their keys and redirects work again'
        }
        &'linkapi;admin;help;user;create'= {
        }
        &'linkapi;admin;help;user;list'= {
        }
        &'linkapi;admin;help;user;show'= {
        }
        &'linkapi;admin;help;user;edit'= {
        }
        &'linkapi;admin;help;user;suspend'= {
        }
        &'linkapi;admin;help;user;resume'= {
        }
        &'linkapi;admin;help;key'= {
            cand create 'Create a key; its secret is printed this once'
            cand list 'List keys (never their secrets)'
            cand revoke 'Revoke a key at once'
        }
        &'linkapi;admin;help;key;create'= {
        }
        &'linkapi;admin;help;key;list'= {
        }
        &'linkapi;admin;help;key;revoke'= {
        }
        &'linkapi;admin;help;domain'= {
            cand create 'Register a domain (point its DNS at the server first)'
            cand list 'List every domain'
            cand set-status 'Switch a domain on (its links serve) or off (they answer 404)'
        }
        &'linkapi;admin;help;domain;create'= {
        }
        &'linkapi;admin;help;domain;list'= {
        }
        &'linkapi;admin;help;domain;set-status'= {
        }
        &'linkapi;admin;help;template'= {
            cand add 'Add a custom template'
            cand list 'List every template, retired ones included'
            cand edit 'Change a custom template'
            cand retire 'Retire a custom template: no longer offered; chains that use it keep it'
        }
        &'linkapi;admin;help;template;add'= {
        }
        &'linkapi;admin;help;template;list'= {
        }
        &'linkapi;admin;help;template;edit'= {
        }
        &'linkapi;admin;help;template;retire'= {
        }
        &'linkapi;admin;help;workchat'= {
            cand add-assembly 'Add an acquisition link to a user''s assembly list (or change the one with its link id)'
            cand assemblies 'A user''s assembly list'
            cand load-transfers 'Load transfer records from a file: a JSON array or JSON lines of {external_userid, name, status, takeover_time, errcode, reason}'
        }
        &'linkapi;admin;help;workchat;add-assembly'= {
        }
        &'linkapi;admin;help;workchat;assemblies'= {
        }
        &'linkapi;admin;help;workchat;load-transfers'= {
        }
        &'linkapi;admin;help;rotate-visitor-secret'= {
        }
        &'linkapi;admin;help;help'= {
        }
        &'linkapi;serve'= {
            cand --listen 'Address to listen on [default: 127.0.0.1:8080]'
            cand --data-dir 'Directory of the SQLite database and uploads [default: the configuration file''s, else the user''s data directory]'
            cand --database-url 'PostgreSQL database to use instead of the SQLite file, shared by every instance: postgres://user:password@host:port/db (add ?sslmode=require for TLS)'
            cand --config 'TOML configuration file; flags override its values'
            cand --public-url 'Public base URL of short links, as scheme://host or scheme://host:port [default: http://ADDR]'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;data'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand backup 'Write a consistent snapshot of the SQLite database, while the server runs'
            cand restore 'Put a backup in place of the SQLite database (stop the server first)'
            cand migrate 'Copy a SQLite deployment''s database into PostgreSQL (stop the server first)'
            cand admin-key 'Make a new admin key (scope *) for the first user, when every other is lost'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;data;backup'= {
            cand --data-dir 'Directory of the SQLite database and uploads [default: the configuration file''s, else the user''s data directory]'
            cand --database-url 'PostgreSQL database to use instead of the SQLite file, shared by every instance: postgres://user:password@host:port/db (add ?sslmode=require for TLS)'
            cand --config 'TOML configuration file; flags override its values'
            cand --to 'File to write the snapshot to; must not exist'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;data;restore'= {
            cand --data-dir 'Directory of the SQLite database and uploads [default: the configuration file''s, else the user''s data directory]'
            cand --database-url 'PostgreSQL database to use instead of the SQLite file, shared by every instance: postgres://user:password@host:port/db (add ?sslmode=require for TLS)'
            cand --config 'TOML configuration file; flags override its values'
            cand --from 'The backup to put in place'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;data;migrate'= {
            cand --from 'The SQLite database to copy, as sqlite:PATH (the database file or its data directory)'
            cand --to 'The PostgreSQL database to copy into: postgres://user:password@host:port/db'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --replace 'Replace whatever the target holds (by default a target with data is refused)'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;data;admin-key'= {
            cand --data-dir 'Directory of the SQLite database and uploads [default: the configuration file''s, else the user''s data directory]'
            cand --database-url 'PostgreSQL database to use instead of the SQLite file, shared by every instance: postgres://user:password@host:port/db (add ?sslmode=require for TLS)'
            cand --config 'TOML configuration file; flags override its values'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;data;help'= {
            cand backup 'Write a consistent snapshot of the SQLite database, while the server runs'
            cand restore 'Put a backup in place of the SQLite database (stop the server first)'
            cand migrate 'Copy a SQLite deployment''s database into PostgreSQL (stop the server first)'
            cand admin-key 'Make a new admin key (scope *) for the first user, when every other is lost'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;data;help;backup'= {
        }
        &'linkapi;data;help;restore'= {
        }
        &'linkapi;data;help;migrate'= {
        }
        &'linkapi;data;help;admin-key'= {
        }
        &'linkapi;data;help;help'= {
        }
        &'linkapi;completions'= {
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;man'= {
            cand --out-dir 'Write linkapi.1 and one page per subcommand here instead of printing linkapi.1'
            cand --host 'Server URL [default: the profile''s host, else http://127.0.0.1:8080]'
            cand --profile 'Profile: a named server and key [default: config.toml''s default_profile, else "default"]'
            cand --no-input 'Never prompt; fail instead where a prompt would be needed (LINKAPI_NO_INPUT: 1, true or yes; 0, false or no prompts as usual)'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'linkapi;help'= {
            cand auth 'Log in to a server, see where keys come from, log out'
            cand chain 'Create, list, inspect, edit and delete short links'
            cand group 'Create and list groups of chains'
            cand domain 'List the domains you may create chains on'
            cand stats 'Show visits: a chain''s totals and daily trend, where they came from, or your top chains'
            cand import 'Bring your links over from chhoto-url, Kutt, YOURLS, Shlink, Bitly or a linkapi export'
            cand wx 'Messaging-app chains: QR codes that rotate, account IDs, mini-programs, shops'
            cand card 'Card chains: messaging-app chains in the card namespace'
            cand workchat 'Work-chat chains, your assembly list and customer-transfer results'
            cand conversion 'Report ad conversions for a chain and list what was recorded'
            cand template 'List the jump-page templates you may use'
            cand webhook 'Send events of your writes to your own endpoints, and receive them locally'
            cand upload 'Upload images (many at once, with progress bars), list and delete uploads'
            cand admin 'Manage users, API keys and domains (needs a key with scope admin)'
            cand serve 'Run the server locally (same flags as linkapi-server)'
            cand data 'Back up, restore, or move to PostgreSQL the data of a local server (same as linkapi-server''s commands)'
            cand completions 'Print a shell completion script'
            cand man 'Print the manual page, or write every page into a directory'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'linkapi;help;auth'= {
            cand login 'Store an API key for a server, checked against the server first'
            cand status 'Show each profile''s server, where its key comes from, and whether the key works'
            cand logout 'Forget the stored key of the profile (the key itself stays valid on the server)'
            cand token 'Print the key the current profile would use'
        }
        &'linkapi;help;auth;login'= {
        }
        &'linkapi;help;auth;status'= {
        }
        &'linkapi;help;auth;logout'= {
        }
        &'linkapi;help;auth;token'= {
        }
        &'linkapi;help;chain'= {
            cand create 'Create a short link'
            cand import 'Create many chains from CSV or JSON lines, one chain per line'
            cand export 'Write all your short links, with what a re-import needs, as JSON lines or CSV'
            cand list 'List your short links, newest first'
            cand info 'Show one chain'
            cand qr 'Show a chain''s QR code in the terminal, or write it as PNG or SVG'
            cand edit 'Change a chain''s title, destination, expiry, rules, redirect status, start, visit limit or preview'
            cand archive 'Archive a chain: it still redirects, and `chain list` leaves it out'
            cand unarchive 'Bring an archived chain back to `chain list`'
            cand delete 'Delete chains (their codes are never reused)'
        }
        &'linkapi;help;chain;create'= {
        }
        &'linkapi;help;chain;import'= {
        }
        &'linkapi;help;chain;export'= {
        }
        &'linkapi;help;chain;list'= {
        }
        &'linkapi;help;chain;info'= {
        }
        &'linkapi;help;chain;qr'= {
        }
        &'linkapi;help;chain;edit'= {
        }
        &'linkapi;help;chain;archive'= {
        }
        &'linkapi;help;chain;unarchive'= {
        }
        &'linkapi;help;chain;delete'= {
        }
        &'linkapi;help;group'= {
            cand create 'Create a group'
            cand list 'List your groups'
            cand info 'Show one of your groups: its name, kind and live chains'
        }
        &'linkapi;help;group;create'= {
        }
        &'linkapi;help;group;list'= {
        }
        &'linkapi;help;group;info'= {
        }
        &'linkapi;help;domain'= {
            cand list 'List the domains you may use'
        }
        &'linkapi;help;domain;list'= {
        }
        &'linkapi;help;stats'= {
        }
        &'linkapi;help;import'= {
        }
        &'linkapi;help;wx'= {
            cand create 'Create a messaging-app chain'
            cand list 'List your messaging-app chains, newest first'
            cand info 'Show one chain and its channels'
            cand qr 'Show a chain''s QR code in the terminal, or write it as PNG or SVG'
            cand edit 'Change a chain''s fields and channels'
            cand delete 'Delete messaging-app chains'
        }
        &'linkapi;help;wx;create'= {
        }
        &'linkapi;help;wx;list'= {
        }
        &'linkapi;help;wx;info'= {
        }
        &'linkapi;help;wx;qr'= {
        }
        &'linkapi;help;wx;edit'= {
        }
        &'linkapi;help;wx;delete'= {
        }
        &'linkapi;help;card'= {
            cand list 'Your card chains (at most 100, newest first)'
            cand create 'Create a chain in the card namespace (always the generic page: no --template)'
        }
        &'linkapi;help;card;list'= {
        }
        &'linkapi;help;card;create'= {
        }
        &'linkapi;help;workchat'= {
            cand create 'Create a work-chat chain'
            cand edit 'Change a work-chat chain'
            cand info 'Show a work-chat chain'
            cand list 'List your work-chat chains, newest first'
            cand delete 'Delete work-chat chains'
            cand assemblies 'Your assembly list: the acquisition links work-chat chains may lead to'
            cand transfers 'Customer-ownership transfer results of a corp'
        }
        &'linkapi;help;workchat;create'= {
        }
        &'linkapi;help;workchat;edit'= {
        }
        &'linkapi;help;workchat;info'= {
        }
        &'linkapi;help;workchat;list'= {
        }
        &'linkapi;help;workchat;delete'= {
        }
        &'linkapi;help;workchat;assemblies'= {
        }
        &'linkapi;help;workchat;transfers'= {
        }
        &'linkapi;help;conversion'= {
            cand report 'Report a conversion; a repeat of the same chain, type and out id is recognised as a duplicate and not recorded twice'
            cand list 'List the conversions recorded for a chain, newest first'
        }
        &'linkapi;help;conversion;report'= {
        }
        &'linkapi;help;conversion;list'= {
        }
        &'linkapi;help;template'= {
            cand list 'List the templates offered to you, and which your chains use'
        }
        &'linkapi;help;template;list'= {
        }
        &'linkapi;help;webhook'= {
            cand add 'Register an endpoint for events of your writes; prints its signing secret once'
            cand list 'List your endpoints'
            cand info 'Show one endpoint'
            cand edit 'Change an endpoint''s URL, events or description, or turn it off and on'
            cand delete 'Delete an endpoint, its pending deliveries and its history'
            cand test 'Send a webhook.test event to an endpoint'
            cand rotate-secret 'Give an endpoint a new signing secret; the old one keeps signing for 24 hours'
            cand deliveries 'List the attempts to deliver to an endpoint, newest first'
            cand listen 'Receive webhooks locally and print them as they arrive, checking their signatures'
        }
        &'linkapi;help;webhook;add'= {
        }
        &'linkapi;help;webhook;list'= {
        }
        &'linkapi;help;webhook;info'= {
        }
        &'linkapi;help;webhook;edit'= {
        }
        &'linkapi;help;webhook;delete'= {
        }
        &'linkapi;help;webhook;test'= {
        }
        &'linkapi;help;webhook;rotate-secret'= {
        }
        &'linkapi;help;webhook;deliveries'= {
        }
        &'linkapi;help;webhook;listen'= {
        }
        &'linkapi;help;upload'= {
            cand list 'List your uploads, newest first'
            cand delete 'Delete uploads by id; the bytes go when no upload of anyone names them'
        }
        &'linkapi;help;upload;list'= {
        }
        &'linkapi;help;upload;delete'= {
        }
        &'linkapi;help;admin'= {
            cand user 'Users'
            cand key 'API keys'
            cand domain 'Domains'
            cand template 'Jump-page templates: add, list, edit and retire custom ones'
            cand workchat 'Work-chat data: users'' assembly lists and transfer records'
            cand rotate-visitor-secret 'Count visitors with a new secret from now on (a visitor seen before counts once more as unique)'
        }
        &'linkapi;help;admin;user'= {
            cand create 'Create a user'
            cand list 'List users'
            cand show 'Show a user and what they use: chains, chains created today, uploads, keys'
            cand edit 'Rename a user or change their daily quota'
            cand suspend 'Suspend a user: every key of theirs is refused at once, on every instance'
            cand resume 'Resume a suspended user: their keys and redirects work again'
        }
        &'linkapi;help;admin;user;create'= {
        }
        &'linkapi;help;admin;user;list'= {
        }
        &'linkapi;help;admin;user;show'= {
        }
        &'linkapi;help;admin;user;edit'= {
        }
        &'linkapi;help;admin;user;suspend'= {
        }
        &'linkapi;help;admin;user;resume'= {
        }
        &'linkapi;help;admin;key'= {
            cand create 'Create a key; its secret is printed this once'
            cand list 'List keys (never their secrets)'
            cand revoke 'Revoke a key at once'
        }
        &'linkapi;help;admin;key;create'= {
        }
        &'linkapi;help;admin;key;list'= {
        }
        &'linkapi;help;admin;key;revoke'= {
        }
        &'linkapi;help;admin;domain'= {
            cand create 'Register a domain (point its DNS at the server first)'
            cand list 'List every domain'
            cand set-status 'Switch a domain on (its links serve) or off (they answer 404)'
        }
        &'linkapi;help;admin;domain;create'= {
        }
        &'linkapi;help;admin;domain;list'= {
        }
        &'linkapi;help;admin;domain;set-status'= {
        }
        &'linkapi;help;admin;template'= {
            cand add 'Add a custom template'
            cand list 'List every template, retired ones included'
            cand edit 'Change a custom template'
            cand retire 'Retire a custom template: no longer offered; chains that use it keep it'
        }
        &'linkapi;help;admin;template;add'= {
        }
        &'linkapi;help;admin;template;list'= {
        }
        &'linkapi;help;admin;template;edit'= {
        }
        &'linkapi;help;admin;template;retire'= {
        }
        &'linkapi;help;admin;workchat'= {
            cand add-assembly 'Add an acquisition link to a user''s assembly list (or change the one with its link id)'
            cand assemblies 'A user''s assembly list'
            cand load-transfers 'Load transfer records from a file: a JSON array or JSON lines of {external_userid, name, status, takeover_time, errcode, reason}'
        }
        &'linkapi;help;admin;workchat;add-assembly'= {
        }
        &'linkapi;help;admin;workchat;assemblies'= {
        }
        &'linkapi;help;admin;workchat;load-transfers'= {
        }
        &'linkapi;help;admin;rotate-visitor-secret'= {
        }
        &'linkapi;help;serve'= {
        }
        &'linkapi;help;data'= {
            cand backup 'Write a consistent snapshot of the SQLite database, while the server runs'
            cand restore 'Put a backup in place of the SQLite database (stop the server first)'
            cand migrate 'Copy a SQLite deployment''s database into PostgreSQL (stop the server first)'
            cand admin-key 'Make a new admin key (scope *) for the first user, when every other is lost'
        }
        &'linkapi;help;data;backup'= {
        }
        &'linkapi;help;data;restore'= {
        }
        &'linkapi;help;data;migrate'= {
        }
        &'linkapi;help;data;admin-key'= {
        }
        &'linkapi;help;completions'= {
        }
        &'linkapi;help;man'= {
        }
        &'linkapi;help;help'= {
        }
    ]
    $completions[$command]
}
