_linkapi() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="linkapi"
                ;;
            linkapi,admin)
                cmd="linkapi__subcmd__admin"
                ;;
            linkapi,auth)
                cmd="linkapi__subcmd__auth"
                ;;
            linkapi,card)
                cmd="linkapi__subcmd__card"
                ;;
            linkapi,chain)
                cmd="linkapi__subcmd__chain"
                ;;
            linkapi,completions)
                cmd="linkapi__subcmd__completions"
                ;;
            linkapi,conversion)
                cmd="linkapi__subcmd__conversion"
                ;;
            linkapi,data)
                cmd="linkapi__subcmd__data"
                ;;
            linkapi,domain)
                cmd="linkapi__subcmd__domain"
                ;;
            linkapi,group)
                cmd="linkapi__subcmd__group"
                ;;
            linkapi,help)
                cmd="linkapi__subcmd__help"
                ;;
            linkapi,import)
                cmd="linkapi__subcmd__import"
                ;;
            linkapi,man)
                cmd="linkapi__subcmd__man"
                ;;
            linkapi,serve)
                cmd="linkapi__subcmd__serve"
                ;;
            linkapi,stats)
                cmd="linkapi__subcmd__stats"
                ;;
            linkapi,template)
                cmd="linkapi__subcmd__template"
                ;;
            linkapi,upload)
                cmd="linkapi__subcmd__upload"
                ;;
            linkapi,webhook)
                cmd="linkapi__subcmd__webhook"
                ;;
            linkapi,workchat)
                cmd="linkapi__subcmd__workchat"
                ;;
            linkapi,wx)
                cmd="linkapi__subcmd__wx"
                ;;
            linkapi__subcmd__admin,domain)
                cmd="linkapi__subcmd__admin__subcmd__domain"
                ;;
            linkapi__subcmd__admin,help)
                cmd="linkapi__subcmd__admin__subcmd__help"
                ;;
            linkapi__subcmd__admin,key)
                cmd="linkapi__subcmd__admin__subcmd__key"
                ;;
            linkapi__subcmd__admin,rotate-visitor-secret)
                cmd="linkapi__subcmd__admin__subcmd__rotate__subcmd__visitor__subcmd__secret"
                ;;
            linkapi__subcmd__admin,template)
                cmd="linkapi__subcmd__admin__subcmd__template"
                ;;
            linkapi__subcmd__admin,user)
                cmd="linkapi__subcmd__admin__subcmd__user"
                ;;
            linkapi__subcmd__admin,workchat)
                cmd="linkapi__subcmd__admin__subcmd__workchat"
                ;;
            linkapi__subcmd__admin__subcmd__domain,create)
                cmd="linkapi__subcmd__admin__subcmd__domain__subcmd__create"
                ;;
            linkapi__subcmd__admin__subcmd__domain,help)
                cmd="linkapi__subcmd__admin__subcmd__domain__subcmd__help"
                ;;
            linkapi__subcmd__admin__subcmd__domain,list)
                cmd="linkapi__subcmd__admin__subcmd__domain__subcmd__list"
                ;;
            linkapi__subcmd__admin__subcmd__domain,set-status)
                cmd="linkapi__subcmd__admin__subcmd__domain__subcmd__set__subcmd__status"
                ;;
            linkapi__subcmd__admin__subcmd__domain__subcmd__help,create)
                cmd="linkapi__subcmd__admin__subcmd__domain__subcmd__help__subcmd__create"
                ;;
            linkapi__subcmd__admin__subcmd__domain__subcmd__help,help)
                cmd="linkapi__subcmd__admin__subcmd__domain__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__admin__subcmd__domain__subcmd__help,list)
                cmd="linkapi__subcmd__admin__subcmd__domain__subcmd__help__subcmd__list"
                ;;
            linkapi__subcmd__admin__subcmd__domain__subcmd__help,set-status)
                cmd="linkapi__subcmd__admin__subcmd__domain__subcmd__help__subcmd__set__subcmd__status"
                ;;
            linkapi__subcmd__admin__subcmd__help,domain)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__domain"
                ;;
            linkapi__subcmd__admin__subcmd__help,help)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__admin__subcmd__help,key)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__key"
                ;;
            linkapi__subcmd__admin__subcmd__help,rotate-visitor-secret)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__rotate__subcmd__visitor__subcmd__secret"
                ;;
            linkapi__subcmd__admin__subcmd__help,template)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__template"
                ;;
            linkapi__subcmd__admin__subcmd__help,user)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__user"
                ;;
            linkapi__subcmd__admin__subcmd__help,workchat)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__workchat"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__domain,create)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__domain__subcmd__create"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__domain,list)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__domain__subcmd__list"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__domain,set-status)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__domain__subcmd__set__subcmd__status"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__key,create)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__key__subcmd__create"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__key,list)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__key__subcmd__list"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__key,revoke)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__key__subcmd__revoke"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__template,add)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__template__subcmd__add"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__template,edit)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__template__subcmd__edit"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__template,list)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__template__subcmd__list"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__template,retire)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__template__subcmd__retire"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__user,create)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__user__subcmd__create"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__user,edit)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__user__subcmd__edit"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__user,list)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__user__subcmd__list"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__user,resume)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__user__subcmd__resume"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__user,show)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__user__subcmd__show"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__user,suspend)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__user__subcmd__suspend"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__workchat,add-assembly)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__workchat__subcmd__add__subcmd__assembly"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__workchat,assemblies)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__workchat__subcmd__assemblies"
                ;;
            linkapi__subcmd__admin__subcmd__help__subcmd__workchat,load-transfers)
                cmd="linkapi__subcmd__admin__subcmd__help__subcmd__workchat__subcmd__load__subcmd__transfers"
                ;;
            linkapi__subcmd__admin__subcmd__key,create)
                cmd="linkapi__subcmd__admin__subcmd__key__subcmd__create"
                ;;
            linkapi__subcmd__admin__subcmd__key,help)
                cmd="linkapi__subcmd__admin__subcmd__key__subcmd__help"
                ;;
            linkapi__subcmd__admin__subcmd__key,list)
                cmd="linkapi__subcmd__admin__subcmd__key__subcmd__list"
                ;;
            linkapi__subcmd__admin__subcmd__key,revoke)
                cmd="linkapi__subcmd__admin__subcmd__key__subcmd__revoke"
                ;;
            linkapi__subcmd__admin__subcmd__key__subcmd__help,create)
                cmd="linkapi__subcmd__admin__subcmd__key__subcmd__help__subcmd__create"
                ;;
            linkapi__subcmd__admin__subcmd__key__subcmd__help,help)
                cmd="linkapi__subcmd__admin__subcmd__key__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__admin__subcmd__key__subcmd__help,list)
                cmd="linkapi__subcmd__admin__subcmd__key__subcmd__help__subcmd__list"
                ;;
            linkapi__subcmd__admin__subcmd__key__subcmd__help,revoke)
                cmd="linkapi__subcmd__admin__subcmd__key__subcmd__help__subcmd__revoke"
                ;;
            linkapi__subcmd__admin__subcmd__template,add)
                cmd="linkapi__subcmd__admin__subcmd__template__subcmd__add"
                ;;
            linkapi__subcmd__admin__subcmd__template,edit)
                cmd="linkapi__subcmd__admin__subcmd__template__subcmd__edit"
                ;;
            linkapi__subcmd__admin__subcmd__template,help)
                cmd="linkapi__subcmd__admin__subcmd__template__subcmd__help"
                ;;
            linkapi__subcmd__admin__subcmd__template,list)
                cmd="linkapi__subcmd__admin__subcmd__template__subcmd__list"
                ;;
            linkapi__subcmd__admin__subcmd__template,retire)
                cmd="linkapi__subcmd__admin__subcmd__template__subcmd__retire"
                ;;
            linkapi__subcmd__admin__subcmd__template__subcmd__help,add)
                cmd="linkapi__subcmd__admin__subcmd__template__subcmd__help__subcmd__add"
                ;;
            linkapi__subcmd__admin__subcmd__template__subcmd__help,edit)
                cmd="linkapi__subcmd__admin__subcmd__template__subcmd__help__subcmd__edit"
                ;;
            linkapi__subcmd__admin__subcmd__template__subcmd__help,help)
                cmd="linkapi__subcmd__admin__subcmd__template__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__admin__subcmd__template__subcmd__help,list)
                cmd="linkapi__subcmd__admin__subcmd__template__subcmd__help__subcmd__list"
                ;;
            linkapi__subcmd__admin__subcmd__template__subcmd__help,retire)
                cmd="linkapi__subcmd__admin__subcmd__template__subcmd__help__subcmd__retire"
                ;;
            linkapi__subcmd__admin__subcmd__user,create)
                cmd="linkapi__subcmd__admin__subcmd__user__subcmd__create"
                ;;
            linkapi__subcmd__admin__subcmd__user,edit)
                cmd="linkapi__subcmd__admin__subcmd__user__subcmd__edit"
                ;;
            linkapi__subcmd__admin__subcmd__user,help)
                cmd="linkapi__subcmd__admin__subcmd__user__subcmd__help"
                ;;
            linkapi__subcmd__admin__subcmd__user,list)
                cmd="linkapi__subcmd__admin__subcmd__user__subcmd__list"
                ;;
            linkapi__subcmd__admin__subcmd__user,resume)
                cmd="linkapi__subcmd__admin__subcmd__user__subcmd__resume"
                ;;
            linkapi__subcmd__admin__subcmd__user,show)
                cmd="linkapi__subcmd__admin__subcmd__user__subcmd__show"
                ;;
            linkapi__subcmd__admin__subcmd__user,suspend)
                cmd="linkapi__subcmd__admin__subcmd__user__subcmd__suspend"
                ;;
            linkapi__subcmd__admin__subcmd__user__subcmd__help,create)
                cmd="linkapi__subcmd__admin__subcmd__user__subcmd__help__subcmd__create"
                ;;
            linkapi__subcmd__admin__subcmd__user__subcmd__help,edit)
                cmd="linkapi__subcmd__admin__subcmd__user__subcmd__help__subcmd__edit"
                ;;
            linkapi__subcmd__admin__subcmd__user__subcmd__help,help)
                cmd="linkapi__subcmd__admin__subcmd__user__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__admin__subcmd__user__subcmd__help,list)
                cmd="linkapi__subcmd__admin__subcmd__user__subcmd__help__subcmd__list"
                ;;
            linkapi__subcmd__admin__subcmd__user__subcmd__help,resume)
                cmd="linkapi__subcmd__admin__subcmd__user__subcmd__help__subcmd__resume"
                ;;
            linkapi__subcmd__admin__subcmd__user__subcmd__help,show)
                cmd="linkapi__subcmd__admin__subcmd__user__subcmd__help__subcmd__show"
                ;;
            linkapi__subcmd__admin__subcmd__user__subcmd__help,suspend)
                cmd="linkapi__subcmd__admin__subcmd__user__subcmd__help__subcmd__suspend"
                ;;
            linkapi__subcmd__admin__subcmd__workchat,add-assembly)
                cmd="linkapi__subcmd__admin__subcmd__workchat__subcmd__add__subcmd__assembly"
                ;;
            linkapi__subcmd__admin__subcmd__workchat,assemblies)
                cmd="linkapi__subcmd__admin__subcmd__workchat__subcmd__assemblies"
                ;;
            linkapi__subcmd__admin__subcmd__workchat,help)
                cmd="linkapi__subcmd__admin__subcmd__workchat__subcmd__help"
                ;;
            linkapi__subcmd__admin__subcmd__workchat,load-transfers)
                cmd="linkapi__subcmd__admin__subcmd__workchat__subcmd__load__subcmd__transfers"
                ;;
            linkapi__subcmd__admin__subcmd__workchat__subcmd__help,add-assembly)
                cmd="linkapi__subcmd__admin__subcmd__workchat__subcmd__help__subcmd__add__subcmd__assembly"
                ;;
            linkapi__subcmd__admin__subcmd__workchat__subcmd__help,assemblies)
                cmd="linkapi__subcmd__admin__subcmd__workchat__subcmd__help__subcmd__assemblies"
                ;;
            linkapi__subcmd__admin__subcmd__workchat__subcmd__help,help)
                cmd="linkapi__subcmd__admin__subcmd__workchat__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__admin__subcmd__workchat__subcmd__help,load-transfers)
                cmd="linkapi__subcmd__admin__subcmd__workchat__subcmd__help__subcmd__load__subcmd__transfers"
                ;;
            linkapi__subcmd__auth,help)
                cmd="linkapi__subcmd__auth__subcmd__help"
                ;;
            linkapi__subcmd__auth,login)
                cmd="linkapi__subcmd__auth__subcmd__login"
                ;;
            linkapi__subcmd__auth,logout)
                cmd="linkapi__subcmd__auth__subcmd__logout"
                ;;
            linkapi__subcmd__auth,status)
                cmd="linkapi__subcmd__auth__subcmd__status"
                ;;
            linkapi__subcmd__auth,token)
                cmd="linkapi__subcmd__auth__subcmd__token"
                ;;
            linkapi__subcmd__auth__subcmd__help,help)
                cmd="linkapi__subcmd__auth__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__auth__subcmd__help,login)
                cmd="linkapi__subcmd__auth__subcmd__help__subcmd__login"
                ;;
            linkapi__subcmd__auth__subcmd__help,logout)
                cmd="linkapi__subcmd__auth__subcmd__help__subcmd__logout"
                ;;
            linkapi__subcmd__auth__subcmd__help,status)
                cmd="linkapi__subcmd__auth__subcmd__help__subcmd__status"
                ;;
            linkapi__subcmd__auth__subcmd__help,token)
                cmd="linkapi__subcmd__auth__subcmd__help__subcmd__token"
                ;;
            linkapi__subcmd__card,create)
                cmd="linkapi__subcmd__card__subcmd__create"
                ;;
            linkapi__subcmd__card,help)
                cmd="linkapi__subcmd__card__subcmd__help"
                ;;
            linkapi__subcmd__card,list)
                cmd="linkapi__subcmd__card__subcmd__list"
                ;;
            linkapi__subcmd__card__subcmd__help,create)
                cmd="linkapi__subcmd__card__subcmd__help__subcmd__create"
                ;;
            linkapi__subcmd__card__subcmd__help,help)
                cmd="linkapi__subcmd__card__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__card__subcmd__help,list)
                cmd="linkapi__subcmd__card__subcmd__help__subcmd__list"
                ;;
            linkapi__subcmd__chain,archive)
                cmd="linkapi__subcmd__chain__subcmd__archive"
                ;;
            linkapi__subcmd__chain,create)
                cmd="linkapi__subcmd__chain__subcmd__create"
                ;;
            linkapi__subcmd__chain,delete)
                cmd="linkapi__subcmd__chain__subcmd__delete"
                ;;
            linkapi__subcmd__chain,edit)
                cmd="linkapi__subcmd__chain__subcmd__edit"
                ;;
            linkapi__subcmd__chain,export)
                cmd="linkapi__subcmd__chain__subcmd__export"
                ;;
            linkapi__subcmd__chain,help)
                cmd="linkapi__subcmd__chain__subcmd__help"
                ;;
            linkapi__subcmd__chain,import)
                cmd="linkapi__subcmd__chain__subcmd__import"
                ;;
            linkapi__subcmd__chain,info)
                cmd="linkapi__subcmd__chain__subcmd__info"
                ;;
            linkapi__subcmd__chain,list)
                cmd="linkapi__subcmd__chain__subcmd__list"
                ;;
            linkapi__subcmd__chain,qr)
                cmd="linkapi__subcmd__chain__subcmd__qr"
                ;;
            linkapi__subcmd__chain,unarchive)
                cmd="linkapi__subcmd__chain__subcmd__unarchive"
                ;;
            linkapi__subcmd__chain__subcmd__help,archive)
                cmd="linkapi__subcmd__chain__subcmd__help__subcmd__archive"
                ;;
            linkapi__subcmd__chain__subcmd__help,create)
                cmd="linkapi__subcmd__chain__subcmd__help__subcmd__create"
                ;;
            linkapi__subcmd__chain__subcmd__help,delete)
                cmd="linkapi__subcmd__chain__subcmd__help__subcmd__delete"
                ;;
            linkapi__subcmd__chain__subcmd__help,edit)
                cmd="linkapi__subcmd__chain__subcmd__help__subcmd__edit"
                ;;
            linkapi__subcmd__chain__subcmd__help,export)
                cmd="linkapi__subcmd__chain__subcmd__help__subcmd__export"
                ;;
            linkapi__subcmd__chain__subcmd__help,help)
                cmd="linkapi__subcmd__chain__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__chain__subcmd__help,import)
                cmd="linkapi__subcmd__chain__subcmd__help__subcmd__import"
                ;;
            linkapi__subcmd__chain__subcmd__help,info)
                cmd="linkapi__subcmd__chain__subcmd__help__subcmd__info"
                ;;
            linkapi__subcmd__chain__subcmd__help,list)
                cmd="linkapi__subcmd__chain__subcmd__help__subcmd__list"
                ;;
            linkapi__subcmd__chain__subcmd__help,qr)
                cmd="linkapi__subcmd__chain__subcmd__help__subcmd__qr"
                ;;
            linkapi__subcmd__chain__subcmd__help,unarchive)
                cmd="linkapi__subcmd__chain__subcmd__help__subcmd__unarchive"
                ;;
            linkapi__subcmd__conversion,help)
                cmd="linkapi__subcmd__conversion__subcmd__help"
                ;;
            linkapi__subcmd__conversion,list)
                cmd="linkapi__subcmd__conversion__subcmd__list"
                ;;
            linkapi__subcmd__conversion,report)
                cmd="linkapi__subcmd__conversion__subcmd__report"
                ;;
            linkapi__subcmd__conversion__subcmd__help,help)
                cmd="linkapi__subcmd__conversion__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__conversion__subcmd__help,list)
                cmd="linkapi__subcmd__conversion__subcmd__help__subcmd__list"
                ;;
            linkapi__subcmd__conversion__subcmd__help,report)
                cmd="linkapi__subcmd__conversion__subcmd__help__subcmd__report"
                ;;
            linkapi__subcmd__data,admin-key)
                cmd="linkapi__subcmd__data__subcmd__admin__subcmd__key"
                ;;
            linkapi__subcmd__data,backup)
                cmd="linkapi__subcmd__data__subcmd__backup"
                ;;
            linkapi__subcmd__data,help)
                cmd="linkapi__subcmd__data__subcmd__help"
                ;;
            linkapi__subcmd__data,migrate)
                cmd="linkapi__subcmd__data__subcmd__migrate"
                ;;
            linkapi__subcmd__data,restore)
                cmd="linkapi__subcmd__data__subcmd__restore"
                ;;
            linkapi__subcmd__data__subcmd__help,admin-key)
                cmd="linkapi__subcmd__data__subcmd__help__subcmd__admin__subcmd__key"
                ;;
            linkapi__subcmd__data__subcmd__help,backup)
                cmd="linkapi__subcmd__data__subcmd__help__subcmd__backup"
                ;;
            linkapi__subcmd__data__subcmd__help,help)
                cmd="linkapi__subcmd__data__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__data__subcmd__help,migrate)
                cmd="linkapi__subcmd__data__subcmd__help__subcmd__migrate"
                ;;
            linkapi__subcmd__data__subcmd__help,restore)
                cmd="linkapi__subcmd__data__subcmd__help__subcmd__restore"
                ;;
            linkapi__subcmd__domain,help)
                cmd="linkapi__subcmd__domain__subcmd__help"
                ;;
            linkapi__subcmd__domain,list)
                cmd="linkapi__subcmd__domain__subcmd__list"
                ;;
            linkapi__subcmd__domain__subcmd__help,help)
                cmd="linkapi__subcmd__domain__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__domain__subcmd__help,list)
                cmd="linkapi__subcmd__domain__subcmd__help__subcmd__list"
                ;;
            linkapi__subcmd__group,create)
                cmd="linkapi__subcmd__group__subcmd__create"
                ;;
            linkapi__subcmd__group,help)
                cmd="linkapi__subcmd__group__subcmd__help"
                ;;
            linkapi__subcmd__group,info)
                cmd="linkapi__subcmd__group__subcmd__info"
                ;;
            linkapi__subcmd__group,list)
                cmd="linkapi__subcmd__group__subcmd__list"
                ;;
            linkapi__subcmd__group__subcmd__help,create)
                cmd="linkapi__subcmd__group__subcmd__help__subcmd__create"
                ;;
            linkapi__subcmd__group__subcmd__help,help)
                cmd="linkapi__subcmd__group__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__group__subcmd__help,info)
                cmd="linkapi__subcmd__group__subcmd__help__subcmd__info"
                ;;
            linkapi__subcmd__group__subcmd__help,list)
                cmd="linkapi__subcmd__group__subcmd__help__subcmd__list"
                ;;
            linkapi__subcmd__help,admin)
                cmd="linkapi__subcmd__help__subcmd__admin"
                ;;
            linkapi__subcmd__help,auth)
                cmd="linkapi__subcmd__help__subcmd__auth"
                ;;
            linkapi__subcmd__help,card)
                cmd="linkapi__subcmd__help__subcmd__card"
                ;;
            linkapi__subcmd__help,chain)
                cmd="linkapi__subcmd__help__subcmd__chain"
                ;;
            linkapi__subcmd__help,completions)
                cmd="linkapi__subcmd__help__subcmd__completions"
                ;;
            linkapi__subcmd__help,conversion)
                cmd="linkapi__subcmd__help__subcmd__conversion"
                ;;
            linkapi__subcmd__help,data)
                cmd="linkapi__subcmd__help__subcmd__data"
                ;;
            linkapi__subcmd__help,domain)
                cmd="linkapi__subcmd__help__subcmd__domain"
                ;;
            linkapi__subcmd__help,group)
                cmd="linkapi__subcmd__help__subcmd__group"
                ;;
            linkapi__subcmd__help,help)
                cmd="linkapi__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__help,import)
                cmd="linkapi__subcmd__help__subcmd__import"
                ;;
            linkapi__subcmd__help,man)
                cmd="linkapi__subcmd__help__subcmd__man"
                ;;
            linkapi__subcmd__help,serve)
                cmd="linkapi__subcmd__help__subcmd__serve"
                ;;
            linkapi__subcmd__help,stats)
                cmd="linkapi__subcmd__help__subcmd__stats"
                ;;
            linkapi__subcmd__help,template)
                cmd="linkapi__subcmd__help__subcmd__template"
                ;;
            linkapi__subcmd__help,upload)
                cmd="linkapi__subcmd__help__subcmd__upload"
                ;;
            linkapi__subcmd__help,webhook)
                cmd="linkapi__subcmd__help__subcmd__webhook"
                ;;
            linkapi__subcmd__help,workchat)
                cmd="linkapi__subcmd__help__subcmd__workchat"
                ;;
            linkapi__subcmd__help,wx)
                cmd="linkapi__subcmd__help__subcmd__wx"
                ;;
            linkapi__subcmd__help__subcmd__admin,domain)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__domain"
                ;;
            linkapi__subcmd__help__subcmd__admin,key)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__key"
                ;;
            linkapi__subcmd__help__subcmd__admin,rotate-visitor-secret)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__rotate__subcmd__visitor__subcmd__secret"
                ;;
            linkapi__subcmd__help__subcmd__admin,template)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__template"
                ;;
            linkapi__subcmd__help__subcmd__admin,user)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__user"
                ;;
            linkapi__subcmd__help__subcmd__admin,workchat)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__workchat"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__domain,create)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__domain__subcmd__create"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__domain,list)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__domain__subcmd__list"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__domain,set-status)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__domain__subcmd__set__subcmd__status"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__key,create)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__key__subcmd__create"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__key,list)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__key__subcmd__list"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__key,revoke)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__key__subcmd__revoke"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__template,add)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__template__subcmd__add"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__template,edit)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__template__subcmd__edit"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__template,list)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__template__subcmd__list"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__template,retire)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__template__subcmd__retire"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__user,create)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__user__subcmd__create"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__user,edit)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__user__subcmd__edit"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__user,list)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__user__subcmd__list"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__user,resume)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__user__subcmd__resume"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__user,show)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__user__subcmd__show"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__user,suspend)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__user__subcmd__suspend"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__workchat,add-assembly)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__workchat__subcmd__add__subcmd__assembly"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__workchat,assemblies)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__workchat__subcmd__assemblies"
                ;;
            linkapi__subcmd__help__subcmd__admin__subcmd__workchat,load-transfers)
                cmd="linkapi__subcmd__help__subcmd__admin__subcmd__workchat__subcmd__load__subcmd__transfers"
                ;;
            linkapi__subcmd__help__subcmd__auth,login)
                cmd="linkapi__subcmd__help__subcmd__auth__subcmd__login"
                ;;
            linkapi__subcmd__help__subcmd__auth,logout)
                cmd="linkapi__subcmd__help__subcmd__auth__subcmd__logout"
                ;;
            linkapi__subcmd__help__subcmd__auth,status)
                cmd="linkapi__subcmd__help__subcmd__auth__subcmd__status"
                ;;
            linkapi__subcmd__help__subcmd__auth,token)
                cmd="linkapi__subcmd__help__subcmd__auth__subcmd__token"
                ;;
            linkapi__subcmd__help__subcmd__card,create)
                cmd="linkapi__subcmd__help__subcmd__card__subcmd__create"
                ;;
            linkapi__subcmd__help__subcmd__card,list)
                cmd="linkapi__subcmd__help__subcmd__card__subcmd__list"
                ;;
            linkapi__subcmd__help__subcmd__chain,archive)
                cmd="linkapi__subcmd__help__subcmd__chain__subcmd__archive"
                ;;
            linkapi__subcmd__help__subcmd__chain,create)
                cmd="linkapi__subcmd__help__subcmd__chain__subcmd__create"
                ;;
            linkapi__subcmd__help__subcmd__chain,delete)
                cmd="linkapi__subcmd__help__subcmd__chain__subcmd__delete"
                ;;
            linkapi__subcmd__help__subcmd__chain,edit)
                cmd="linkapi__subcmd__help__subcmd__chain__subcmd__edit"
                ;;
            linkapi__subcmd__help__subcmd__chain,export)
                cmd="linkapi__subcmd__help__subcmd__chain__subcmd__export"
                ;;
            linkapi__subcmd__help__subcmd__chain,import)
                cmd="linkapi__subcmd__help__subcmd__chain__subcmd__import"
                ;;
            linkapi__subcmd__help__subcmd__chain,info)
                cmd="linkapi__subcmd__help__subcmd__chain__subcmd__info"
                ;;
            linkapi__subcmd__help__subcmd__chain,list)
                cmd="linkapi__subcmd__help__subcmd__chain__subcmd__list"
                ;;
            linkapi__subcmd__help__subcmd__chain,qr)
                cmd="linkapi__subcmd__help__subcmd__chain__subcmd__qr"
                ;;
            linkapi__subcmd__help__subcmd__chain,unarchive)
                cmd="linkapi__subcmd__help__subcmd__chain__subcmd__unarchive"
                ;;
            linkapi__subcmd__help__subcmd__conversion,list)
                cmd="linkapi__subcmd__help__subcmd__conversion__subcmd__list"
                ;;
            linkapi__subcmd__help__subcmd__conversion,report)
                cmd="linkapi__subcmd__help__subcmd__conversion__subcmd__report"
                ;;
            linkapi__subcmd__help__subcmd__data,admin-key)
                cmd="linkapi__subcmd__help__subcmd__data__subcmd__admin__subcmd__key"
                ;;
            linkapi__subcmd__help__subcmd__data,backup)
                cmd="linkapi__subcmd__help__subcmd__data__subcmd__backup"
                ;;
            linkapi__subcmd__help__subcmd__data,migrate)
                cmd="linkapi__subcmd__help__subcmd__data__subcmd__migrate"
                ;;
            linkapi__subcmd__help__subcmd__data,restore)
                cmd="linkapi__subcmd__help__subcmd__data__subcmd__restore"
                ;;
            linkapi__subcmd__help__subcmd__domain,list)
                cmd="linkapi__subcmd__help__subcmd__domain__subcmd__list"
                ;;
            linkapi__subcmd__help__subcmd__group,create)
                cmd="linkapi__subcmd__help__subcmd__group__subcmd__create"
                ;;
            linkapi__subcmd__help__subcmd__group,info)
                cmd="linkapi__subcmd__help__subcmd__group__subcmd__info"
                ;;
            linkapi__subcmd__help__subcmd__group,list)
                cmd="linkapi__subcmd__help__subcmd__group__subcmd__list"
                ;;
            linkapi__subcmd__help__subcmd__template,list)
                cmd="linkapi__subcmd__help__subcmd__template__subcmd__list"
                ;;
            linkapi__subcmd__help__subcmd__upload,delete)
                cmd="linkapi__subcmd__help__subcmd__upload__subcmd__delete"
                ;;
            linkapi__subcmd__help__subcmd__upload,list)
                cmd="linkapi__subcmd__help__subcmd__upload__subcmd__list"
                ;;
            linkapi__subcmd__help__subcmd__webhook,add)
                cmd="linkapi__subcmd__help__subcmd__webhook__subcmd__add"
                ;;
            linkapi__subcmd__help__subcmd__webhook,delete)
                cmd="linkapi__subcmd__help__subcmd__webhook__subcmd__delete"
                ;;
            linkapi__subcmd__help__subcmd__webhook,deliveries)
                cmd="linkapi__subcmd__help__subcmd__webhook__subcmd__deliveries"
                ;;
            linkapi__subcmd__help__subcmd__webhook,edit)
                cmd="linkapi__subcmd__help__subcmd__webhook__subcmd__edit"
                ;;
            linkapi__subcmd__help__subcmd__webhook,info)
                cmd="linkapi__subcmd__help__subcmd__webhook__subcmd__info"
                ;;
            linkapi__subcmd__help__subcmd__webhook,list)
                cmd="linkapi__subcmd__help__subcmd__webhook__subcmd__list"
                ;;
            linkapi__subcmd__help__subcmd__webhook,listen)
                cmd="linkapi__subcmd__help__subcmd__webhook__subcmd__listen"
                ;;
            linkapi__subcmd__help__subcmd__webhook,rotate-secret)
                cmd="linkapi__subcmd__help__subcmd__webhook__subcmd__rotate__subcmd__secret"
                ;;
            linkapi__subcmd__help__subcmd__webhook,test)
                cmd="linkapi__subcmd__help__subcmd__webhook__subcmd__test"
                ;;
            linkapi__subcmd__help__subcmd__workchat,assemblies)
                cmd="linkapi__subcmd__help__subcmd__workchat__subcmd__assemblies"
                ;;
            linkapi__subcmd__help__subcmd__workchat,create)
                cmd="linkapi__subcmd__help__subcmd__workchat__subcmd__create"
                ;;
            linkapi__subcmd__help__subcmd__workchat,delete)
                cmd="linkapi__subcmd__help__subcmd__workchat__subcmd__delete"
                ;;
            linkapi__subcmd__help__subcmd__workchat,edit)
                cmd="linkapi__subcmd__help__subcmd__workchat__subcmd__edit"
                ;;
            linkapi__subcmd__help__subcmd__workchat,info)
                cmd="linkapi__subcmd__help__subcmd__workchat__subcmd__info"
                ;;
            linkapi__subcmd__help__subcmd__workchat,list)
                cmd="linkapi__subcmd__help__subcmd__workchat__subcmd__list"
                ;;
            linkapi__subcmd__help__subcmd__workchat,transfers)
                cmd="linkapi__subcmd__help__subcmd__workchat__subcmd__transfers"
                ;;
            linkapi__subcmd__help__subcmd__wx,create)
                cmd="linkapi__subcmd__help__subcmd__wx__subcmd__create"
                ;;
            linkapi__subcmd__help__subcmd__wx,delete)
                cmd="linkapi__subcmd__help__subcmd__wx__subcmd__delete"
                ;;
            linkapi__subcmd__help__subcmd__wx,edit)
                cmd="linkapi__subcmd__help__subcmd__wx__subcmd__edit"
                ;;
            linkapi__subcmd__help__subcmd__wx,info)
                cmd="linkapi__subcmd__help__subcmd__wx__subcmd__info"
                ;;
            linkapi__subcmd__help__subcmd__wx,list)
                cmd="linkapi__subcmd__help__subcmd__wx__subcmd__list"
                ;;
            linkapi__subcmd__help__subcmd__wx,qr)
                cmd="linkapi__subcmd__help__subcmd__wx__subcmd__qr"
                ;;
            linkapi__subcmd__template,help)
                cmd="linkapi__subcmd__template__subcmd__help"
                ;;
            linkapi__subcmd__template,list)
                cmd="linkapi__subcmd__template__subcmd__list"
                ;;
            linkapi__subcmd__template__subcmd__help,help)
                cmd="linkapi__subcmd__template__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__template__subcmd__help,list)
                cmd="linkapi__subcmd__template__subcmd__help__subcmd__list"
                ;;
            linkapi__subcmd__upload,delete)
                cmd="linkapi__subcmd__upload__subcmd__delete"
                ;;
            linkapi__subcmd__upload,help)
                cmd="linkapi__subcmd__upload__subcmd__help"
                ;;
            linkapi__subcmd__upload,list)
                cmd="linkapi__subcmd__upload__subcmd__list"
                ;;
            linkapi__subcmd__upload__subcmd__help,delete)
                cmd="linkapi__subcmd__upload__subcmd__help__subcmd__delete"
                ;;
            linkapi__subcmd__upload__subcmd__help,help)
                cmd="linkapi__subcmd__upload__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__upload__subcmd__help,list)
                cmd="linkapi__subcmd__upload__subcmd__help__subcmd__list"
                ;;
            linkapi__subcmd__webhook,add)
                cmd="linkapi__subcmd__webhook__subcmd__add"
                ;;
            linkapi__subcmd__webhook,delete)
                cmd="linkapi__subcmd__webhook__subcmd__delete"
                ;;
            linkapi__subcmd__webhook,deliveries)
                cmd="linkapi__subcmd__webhook__subcmd__deliveries"
                ;;
            linkapi__subcmd__webhook,edit)
                cmd="linkapi__subcmd__webhook__subcmd__edit"
                ;;
            linkapi__subcmd__webhook,help)
                cmd="linkapi__subcmd__webhook__subcmd__help"
                ;;
            linkapi__subcmd__webhook,info)
                cmd="linkapi__subcmd__webhook__subcmd__info"
                ;;
            linkapi__subcmd__webhook,list)
                cmd="linkapi__subcmd__webhook__subcmd__list"
                ;;
            linkapi__subcmd__webhook,listen)
                cmd="linkapi__subcmd__webhook__subcmd__listen"
                ;;
            linkapi__subcmd__webhook,rotate-secret)
                cmd="linkapi__subcmd__webhook__subcmd__rotate__subcmd__secret"
                ;;
            linkapi__subcmd__webhook,test)
                cmd="linkapi__subcmd__webhook__subcmd__test"
                ;;
            linkapi__subcmd__webhook__subcmd__help,add)
                cmd="linkapi__subcmd__webhook__subcmd__help__subcmd__add"
                ;;
            linkapi__subcmd__webhook__subcmd__help,delete)
                cmd="linkapi__subcmd__webhook__subcmd__help__subcmd__delete"
                ;;
            linkapi__subcmd__webhook__subcmd__help,deliveries)
                cmd="linkapi__subcmd__webhook__subcmd__help__subcmd__deliveries"
                ;;
            linkapi__subcmd__webhook__subcmd__help,edit)
                cmd="linkapi__subcmd__webhook__subcmd__help__subcmd__edit"
                ;;
            linkapi__subcmd__webhook__subcmd__help,help)
                cmd="linkapi__subcmd__webhook__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__webhook__subcmd__help,info)
                cmd="linkapi__subcmd__webhook__subcmd__help__subcmd__info"
                ;;
            linkapi__subcmd__webhook__subcmd__help,list)
                cmd="linkapi__subcmd__webhook__subcmd__help__subcmd__list"
                ;;
            linkapi__subcmd__webhook__subcmd__help,listen)
                cmd="linkapi__subcmd__webhook__subcmd__help__subcmd__listen"
                ;;
            linkapi__subcmd__webhook__subcmd__help,rotate-secret)
                cmd="linkapi__subcmd__webhook__subcmd__help__subcmd__rotate__subcmd__secret"
                ;;
            linkapi__subcmd__webhook__subcmd__help,test)
                cmd="linkapi__subcmd__webhook__subcmd__help__subcmd__test"
                ;;
            linkapi__subcmd__workchat,assemblies)
                cmd="linkapi__subcmd__workchat__subcmd__assemblies"
                ;;
            linkapi__subcmd__workchat,create)
                cmd="linkapi__subcmd__workchat__subcmd__create"
                ;;
            linkapi__subcmd__workchat,delete)
                cmd="linkapi__subcmd__workchat__subcmd__delete"
                ;;
            linkapi__subcmd__workchat,edit)
                cmd="linkapi__subcmd__workchat__subcmd__edit"
                ;;
            linkapi__subcmd__workchat,help)
                cmd="linkapi__subcmd__workchat__subcmd__help"
                ;;
            linkapi__subcmd__workchat,info)
                cmd="linkapi__subcmd__workchat__subcmd__info"
                ;;
            linkapi__subcmd__workchat,list)
                cmd="linkapi__subcmd__workchat__subcmd__list"
                ;;
            linkapi__subcmd__workchat,transfers)
                cmd="linkapi__subcmd__workchat__subcmd__transfers"
                ;;
            linkapi__subcmd__workchat__subcmd__help,assemblies)
                cmd="linkapi__subcmd__workchat__subcmd__help__subcmd__assemblies"
                ;;
            linkapi__subcmd__workchat__subcmd__help,create)
                cmd="linkapi__subcmd__workchat__subcmd__help__subcmd__create"
                ;;
            linkapi__subcmd__workchat__subcmd__help,delete)
                cmd="linkapi__subcmd__workchat__subcmd__help__subcmd__delete"
                ;;
            linkapi__subcmd__workchat__subcmd__help,edit)
                cmd="linkapi__subcmd__workchat__subcmd__help__subcmd__edit"
                ;;
            linkapi__subcmd__workchat__subcmd__help,help)
                cmd="linkapi__subcmd__workchat__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__workchat__subcmd__help,info)
                cmd="linkapi__subcmd__workchat__subcmd__help__subcmd__info"
                ;;
            linkapi__subcmd__workchat__subcmd__help,list)
                cmd="linkapi__subcmd__workchat__subcmd__help__subcmd__list"
                ;;
            linkapi__subcmd__workchat__subcmd__help,transfers)
                cmd="linkapi__subcmd__workchat__subcmd__help__subcmd__transfers"
                ;;
            linkapi__subcmd__wx,create)
                cmd="linkapi__subcmd__wx__subcmd__create"
                ;;
            linkapi__subcmd__wx,delete)
                cmd="linkapi__subcmd__wx__subcmd__delete"
                ;;
            linkapi__subcmd__wx,edit)
                cmd="linkapi__subcmd__wx__subcmd__edit"
                ;;
            linkapi__subcmd__wx,help)
                cmd="linkapi__subcmd__wx__subcmd__help"
                ;;
            linkapi__subcmd__wx,info)
                cmd="linkapi__subcmd__wx__subcmd__info"
                ;;
            linkapi__subcmd__wx,list)
                cmd="linkapi__subcmd__wx__subcmd__list"
                ;;
            linkapi__subcmd__wx,qr)
                cmd="linkapi__subcmd__wx__subcmd__qr"
                ;;
            linkapi__subcmd__wx__subcmd__help,create)
                cmd="linkapi__subcmd__wx__subcmd__help__subcmd__create"
                ;;
            linkapi__subcmd__wx__subcmd__help,delete)
                cmd="linkapi__subcmd__wx__subcmd__help__subcmd__delete"
                ;;
            linkapi__subcmd__wx__subcmd__help,edit)
                cmd="linkapi__subcmd__wx__subcmd__help__subcmd__edit"
                ;;
            linkapi__subcmd__wx__subcmd__help,help)
                cmd="linkapi__subcmd__wx__subcmd__help__subcmd__help"
                ;;
            linkapi__subcmd__wx__subcmd__help,info)
                cmd="linkapi__subcmd__wx__subcmd__help__subcmd__info"
                ;;
            linkapi__subcmd__wx__subcmd__help,list)
                cmd="linkapi__subcmd__wx__subcmd__help__subcmd__list"
                ;;
            linkapi__subcmd__wx__subcmd__help,qr)
                cmd="linkapi__subcmd__wx__subcmd__help__subcmd__qr"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        linkapi)
            opts="-h -V --host --profile --no-input --help --version auth chain group domain stats import wx card workchat conversion template webhook upload admin serve data completions man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin)
            opts="-h -V --host --profile --no-input --help --version user key domain template workchat rotate-visitor-secret help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__domain)
            opts="-h -V --host --profile --no-input --help --version create list set-status help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__domain__subcmd__create)
            opts="-h -V --scheme --scene --shared --user --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --scheme)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scene)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__domain__subcmd__help)
            opts="create list set-status help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__domain__subcmd__help__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__domain__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__domain__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__domain__subcmd__help__subcmd__set__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__domain__subcmd__list)
            opts="-h -V --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__domain__subcmd__set__subcmd__status)
            opts="-h -V --json --host --profile --no-input --help --version effective not-effective"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help)
            opts="user key domain template workchat rotate-visitor-secret help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__domain)
            opts="create list set-status"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__domain__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__domain__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__domain__subcmd__set__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__key)
            opts="create list revoke"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__key__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__key__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__key__subcmd__revoke)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__rotate__subcmd__visitor__subcmd__secret)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__template)
            opts="add list edit retire"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__template__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__template__subcmd__edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__template__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__template__subcmd__retire)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__user)
            opts="create list show edit suspend resume"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__user__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__user__subcmd__edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__user__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__user__subcmd__resume)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__user__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__user__subcmd__suspend)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__workchat)
            opts="add-assembly assemblies load-transfers"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__workchat__subcmd__add__subcmd__assembly)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__workchat__subcmd__assemblies)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__help__subcmd__workchat__subcmd__load__subcmd__transfers)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__key)
            opts="-h -V --host --profile --no-input --help --version create list revoke help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__key__subcmd__create)
            opts="-h -V --user --scope --name --expires --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scope)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --expires)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__key__subcmd__help)
            opts="create list revoke help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__key__subcmd__help__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__key__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__key__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__key__subcmd__help__subcmd__revoke)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__key__subcmd__list)
            opts="-h -V --user --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__key__subcmd__revoke)
            opts="-y -h -V --yes --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__rotate__subcmd__visitor__subcmd__secret)
            opts="-h -V --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__template)
            opts="-h -V --host --profile --no-input --help --version add list edit retire help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__template__subcmd__add)
            opts="-h -V --style --thumb --body-file --user --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --style)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --thumb)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --body-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__template__subcmd__edit)
            opts="-h -V --name --style --thumb --body-file --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --style)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --thumb)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --body-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__template__subcmd__help)
            opts="add list edit retire help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__template__subcmd__help__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__template__subcmd__help__subcmd__edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__template__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__template__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__template__subcmd__help__subcmd__retire)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__template__subcmd__list)
            opts="-h -V --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__template__subcmd__retire)
            opts="-h -V --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__user)
            opts="-h -V --host --profile --no-input --help --version create list show edit suspend resume help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__user__subcmd__create)
            opts="-h -V --daily-quota --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --daily-quota)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__user__subcmd__edit)
            opts="-h -V --name --daily-quota --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --daily-quota)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__user__subcmd__help)
            opts="create list show edit suspend resume help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__user__subcmd__help__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__user__subcmd__help__subcmd__edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__user__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__user__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__user__subcmd__help__subcmd__resume)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__user__subcmd__help__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__user__subcmd__help__subcmd__suspend)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__user__subcmd__list)
            opts="-h -V --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__user__subcmd__resume)
            opts="-h -V --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__user__subcmd__show)
            opts="-h -V --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__user__subcmd__suspend)
            opts="-y -h -V --redirects --yes --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__workchat)
            opts="-h -V --host --profile --no-input --help --version add-assembly assemblies load-transfers help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__workchat__subcmd__add__subcmd__assembly)
            opts="-h -V --user --link-id --name --url --auth-status --invalid --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --link-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --name)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --auth-status)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__workchat__subcmd__assemblies)
            opts="-h -V --user --page --limit --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --page)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__workchat__subcmd__help)
            opts="add-assembly assemblies load-transfers help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__workchat__subcmd__help__subcmd__add__subcmd__assembly)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__workchat__subcmd__help__subcmd__assemblies)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__workchat__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__workchat__subcmd__help__subcmd__load__subcmd__transfers)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__admin__subcmd__workchat__subcmd__load__subcmd__transfers)
            opts="-h -V --user --corp --handover --takeover --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --corp)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --handover)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --takeover)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__auth)
            opts="-h -V --host --profile --no-input --help --version login status logout token help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__auth__subcmd__help)
            opts="login status logout token help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__auth__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__auth__subcmd__help__subcmd__login)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__auth__subcmd__help__subcmd__logout)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__auth__subcmd__help__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__auth__subcmd__help__subcmd__token)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__auth__subcmd__login)
            opts="-h -V --with-key --insecure-storage --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__auth__subcmd__logout)
            opts="-h -V --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__auth__subcmd__status)
            opts="-h -V --show-key --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__auth__subcmd__token)
            opts="-h -V --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__card)
            opts="-h -V --host --profile --no-input --help --version list create help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__card__subcmd__create)
            opts="-h -V --from-file --title --sub-type --qr-url --wx-id --mini-appid --mini-path --shop-appid --shop-path --qwhk-url --avatar --guide-text --desc --sub-title --direct-jump --page --show-type --template --scan-tips --rotation --cap --channel --expires --group --code --domain --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sub-type)
                    COMPREPLY=($(compgen -W "scan-qr account mini-program shop workchat-url" -- "${cur}"))
                    return 0
                    ;;
                --qr-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wx-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mini-appid)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mini-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shop-appid)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shop-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --qwhk-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --avatar)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --guide-text)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --desc)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sub-title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --show-type)
                    COMPREPLY=($(compgen -W "small long" -- "${cur}"))
                    return 0
                    ;;
                --template)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scan-tips)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rotation)
                    COMPREPLY=($(compgen -W "sort weighted round-robin uniform" -- "${cur}"))
                    return 0
                    ;;
                --cap)
                    COMPREPLY=($(compgen -W "total daily" -- "${cur}"))
                    return 0
                    ;;
                --channel)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --expires)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --group)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --code)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__card__subcmd__help)
            opts="list create help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__card__subcmd__help__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__card__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__card__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__card__subcmd__list)
            opts="-h -V --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain)
            opts="-h -V --host --profile --no-input --help --version create import export list info qr edit archive unarchive delete help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__archive)
            opts="-h -V --code --domain --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__create)
            opts="-h -V --title --code --domain --group --expires --rule --rules-file --redirect-status --valid-since --max-visits --preview-title --preview-description --preview-image --idempotency-key --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --code)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --group)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --expires)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rules-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --redirect-status)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --valid-since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-visits)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --preview-title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --preview-description)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --preview-image)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idempotency-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__delete)
            opts="-y -h -V --code --domain --yes --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__edit)
            opts="-h -V --code --domain --title --target-url --expires --rule --rules-file --clear-rules --redirect-status --valid-since --max-visits --preview-title --preview-description --preview-image --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --target-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --expires)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rules-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --redirect-status)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --valid-since)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-visits)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --preview-title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --preview-description)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --preview-image)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__export)
            opts="-o -h -V --output --format --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "csv jsonl" -- "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__help)
            opts="create import export list info qr edit archive unarchive delete help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__help__subcmd__archive)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__help__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__help__subcmd__delete)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__help__subcmd__edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__help__subcmd__export)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__help__subcmd__import)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__help__subcmd__info)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__help__subcmd__qr)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__help__subcmd__unarchive)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__import)
            opts="-h -V --format --json --idempotency-key --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "csv jsonl" -- "${cur}"))
                    return 0
                    ;;
                --idempotency-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__info)
            opts="-h -V --code --domain --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__list)
            opts="-q -h -V --page --limit --all --group --query --archived --include-archived --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --page)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --group)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --query)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -q)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__qr)
            opts="-o -h -V --code --domain --output --format --size --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "png svg" -- "${cur}"))
                    return 0
                    ;;
                --size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__chain__subcmd__unarchive)
            opts="-h -V --code --domain --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__completions)
            opts="-h -V --host --profile --no-input --help --version bash zsh fish powershell elvish"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__conversion)
            opts="-h -V --host --profile --no-input --help --version report list help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__conversion__subcmd__help)
            opts="report list help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__conversion__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__conversion__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__conversion__subcmd__help__subcmd__report)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__conversion__subcmd__list)
            opts="-h -V --code --domain --page --limit --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --page)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__conversion__subcmd__report)
            opts="-h -V --code --domain --type --out-id --ad-platform --clickid --external-user --value-cents --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --type)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ad-platform)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --clickid)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --external-user)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --value-cents)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__data)
            opts="-h -V --host --profile --no-input --help --version backup restore migrate admin-key help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__data__subcmd__admin__subcmd__key)
            opts="-h -V --data-dir --database-url --config --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --data-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --database-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__data__subcmd__backup)
            opts="-h -V --data-dir --database-url --config --to --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --data-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --database-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__data__subcmd__help)
            opts="backup restore migrate admin-key help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__data__subcmd__help__subcmd__admin__subcmd__key)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__data__subcmd__help__subcmd__backup)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__data__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__data__subcmd__help__subcmd__migrate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__data__subcmd__help__subcmd__restore)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__data__subcmd__migrate)
            opts="-h -V --from --to --replace --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__data__subcmd__restore)
            opts="-h -V --data-dir --database-url --config --from --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --data-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --database-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__domain)
            opts="-h -V --host --profile --no-input --help --version list help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__domain__subcmd__help)
            opts="list help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__domain__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__domain__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__domain__subcmd__list)
            opts="-h -V --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__group)
            opts="-h -V --host --profile --no-input --help --version create list info help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__group__subcmd__create)
            opts="-h -V --chain-type --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --chain-type)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__group__subcmd__help)
            opts="create list info help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__group__subcmd__help__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__group__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__group__subcmd__help__subcmd__info)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__group__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__group__subcmd__info)
            opts="-h -V --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__group__subcmd__list)
            opts="-h -V --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help)
            opts="auth chain group domain stats import wx card workchat conversion template webhook upload admin serve data completions man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin)
            opts="user key domain template workchat rotate-visitor-secret"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__domain)
            opts="create list set-status"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__domain__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__domain__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__domain__subcmd__set__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__key)
            opts="create list revoke"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__key__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__key__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__key__subcmd__revoke)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__rotate__subcmd__visitor__subcmd__secret)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__template)
            opts="add list edit retire"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__template__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__template__subcmd__edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__template__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__template__subcmd__retire)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__user)
            opts="create list show edit suspend resume"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__user__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__user__subcmd__edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__user__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__user__subcmd__resume)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__user__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__user__subcmd__suspend)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__workchat)
            opts="add-assembly assemblies load-transfers"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__workchat__subcmd__add__subcmd__assembly)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__workchat__subcmd__assemblies)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__admin__subcmd__workchat__subcmd__load__subcmd__transfers)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 5 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__auth)
            opts="login status logout token"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__auth__subcmd__login)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__auth__subcmd__logout)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__auth__subcmd__status)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__auth__subcmd__token)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__card)
            opts="list create"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__card__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__card__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__chain)
            opts="create import export list info qr edit archive unarchive delete"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__chain__subcmd__archive)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__chain__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__chain__subcmd__delete)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__chain__subcmd__edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__chain__subcmd__export)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__chain__subcmd__import)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__chain__subcmd__info)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__chain__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__chain__subcmd__qr)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__chain__subcmd__unarchive)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__conversion)
            opts="report list"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__conversion__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__conversion__subcmd__report)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__data)
            opts="backup restore migrate admin-key"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__data__subcmd__admin__subcmd__key)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__data__subcmd__backup)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__data__subcmd__migrate)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__data__subcmd__restore)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__domain)
            opts="list"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__domain__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__group)
            opts="create list info"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__group__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__group__subcmd__info)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__group__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__import)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__man)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__stats)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__template)
            opts="list"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__template__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__upload)
            opts="list delete"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__upload__subcmd__delete)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__upload__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__webhook)
            opts="add list info edit delete test rotate-secret deliveries listen"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__webhook__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__webhook__subcmd__delete)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__webhook__subcmd__deliveries)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__webhook__subcmd__edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__webhook__subcmd__info)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__webhook__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__webhook__subcmd__listen)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__webhook__subcmd__rotate__subcmd__secret)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__webhook__subcmd__test)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__workchat)
            opts="create edit info list delete assemblies transfers"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__workchat__subcmd__assemblies)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__workchat__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__workchat__subcmd__delete)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__workchat__subcmd__edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__workchat__subcmd__info)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__workchat__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__workchat__subcmd__transfers)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__wx)
            opts="create list info qr edit delete"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__wx__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__wx__subcmd__delete)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__wx__subcmd__edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__wx__subcmd__info)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__wx__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__help__subcmd__wx__subcmd__qr)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__import)
            opts="-h -V --from --domain --map-domain --dry-run --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from)
                    COMPREPLY=($(compgen -W "chhoto kutt yourls shlink bitly linkapi" -- "${cur}"))
                    return 0
                    ;;
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map-domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__man)
            opts="-h -V --out-dir --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --out-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__serve)
            opts="-h -V --listen --data-dir --database-url --config --public-url --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --data-dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --database-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --public-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__stats)
            opts="-h -V --code --orphans --domain --days --by --limit --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --days)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --by)
                    COMPREPLY=($(compgen -W "referrers devices os browsers countries languages rules" -- "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__template)
            opts="-h -V --host --profile --no-input --help --version list help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__template__subcmd__help)
            opts="list help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__template__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__template__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__template__subcmd__list)
            opts="-h -V --page --limit --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --page)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__upload)
            opts="-h -V --dir --recursive --jobs --max-size --tries --json --host --profile --no-input --help --version list delete help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --dir)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tries)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__upload__subcmd__delete)
            opts="-y -h -V --yes --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__upload__subcmd__help)
            opts="list delete help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__upload__subcmd__help__subcmd__delete)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__upload__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__upload__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__upload__subcmd__list)
            opts="-h -V --page --limit --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --page)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook)
            opts="-h -V --host --profile --no-input --help --version add list info edit delete test rotate-secret deliveries listen help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__add)
            opts="-h -V --events --description --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --events)
                    COMPREPLY=($(compgen -W "chain.created chain.updated chain.deleted conversion.created channel.exhausted upload.created" -- "${cur}"))
                    return 0
                    ;;
                --description)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__delete)
            opts="-y -h -V --yes --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__deliveries)
            opts="-h -V --failed --page --limit --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --page)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__edit)
            opts="-h -V --url --events --description --enable --disable --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --events)
                    COMPREPLY=($(compgen -W "chain.created chain.updated chain.deleted conversion.created channel.exhausted upload.created" -- "${cur}"))
                    return 0
                    ;;
                --description)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__help)
            opts="add list info edit delete test rotate-secret deliveries listen help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__help__subcmd__add)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__help__subcmd__delete)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__help__subcmd__deliveries)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__help__subcmd__edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__help__subcmd__info)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__help__subcmd__listen)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__help__subcmd__rotate__subcmd__secret)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__help__subcmd__test)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__info)
            opts="-h -V --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__list)
            opts="-h -V --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__listen)
            opts="-h -V --port --secret --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --port)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --secret)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__rotate__subcmd__secret)
            opts="-h -V --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__webhook__subcmd__test)
            opts="-h -V --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat)
            opts="-h -V --host --profile --no-input --help --version create edit info list delete assemblies transfers help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__assemblies)
            opts="-h -V --page --limit --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --page)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__create)
            opts="-h -V --customer --url --title --direct-jump --page --template --group --expires --code --domain --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --customer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --template)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --group)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --expires)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --code)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__delete)
            opts="-y -h -V --code --yes --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__edit)
            opts="-h -V --channel --customer --url --title --direct-jump --page --template --group --expires --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --channel)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --customer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --template)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --group)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --expires)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__help)
            opts="create edit info list delete assemblies transfers help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__help__subcmd__assemblies)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__help__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__help__subcmd__delete)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__help__subcmd__edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__help__subcmd__info)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__help__subcmd__transfers)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__info)
            opts="-h -V --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__list)
            opts="-h -V --page --limit --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --page)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__workchat__subcmd__transfers)
            opts="-h -V --corp --handover --takeover --cursor --all --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --corp)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --handover)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --takeover)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cursor)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__wx)
            opts="-h -V --host --profile --no-input --help --version create list info qr edit delete help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__wx__subcmd__create)
            opts="-h -V --from-file --title --sub-type --qr-url --wx-id --mini-appid --mini-path --shop-appid --shop-path --qwhk-url --avatar --guide-text --desc --sub-title --direct-jump --page --show-type --template --scan-tips --rotation --cap --channel --expires --group --code --domain --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sub-type)
                    COMPREPLY=($(compgen -W "scan-qr account mini-program shop workchat-url" -- "${cur}"))
                    return 0
                    ;;
                --qr-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wx-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mini-appid)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mini-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shop-appid)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shop-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --qwhk-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --avatar)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --guide-text)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --desc)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sub-title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --show-type)
                    COMPREPLY=($(compgen -W "small long" -- "${cur}"))
                    return 0
                    ;;
                --template)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scan-tips)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rotation)
                    COMPREPLY=($(compgen -W "sort weighted round-robin uniform" -- "${cur}"))
                    return 0
                    ;;
                --cap)
                    COMPREPLY=($(compgen -W "total daily" -- "${cur}"))
                    return 0
                    ;;
                --channel)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --expires)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --group)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --code)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__wx__subcmd__delete)
            opts="-y -h -V --code --yes --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__wx__subcmd__edit)
            opts="-h -V --code --domain --from-file --title --sub-type --qr-url --wx-id --mini-appid --mini-path --shop-appid --shop-path --qwhk-url --avatar --guide-text --desc --sub-title --direct-jump --page --show-type --template --scan-tips --rotation --cap --channel --expires --group --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sub-type)
                    COMPREPLY=($(compgen -W "scan-qr account mini-program shop workchat-url" -- "${cur}"))
                    return 0
                    ;;
                --qr-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --wx-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mini-appid)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mini-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shop-appid)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shop-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --qwhk-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --avatar)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --guide-text)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --desc)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sub-title)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --show-type)
                    COMPREPLY=($(compgen -W "small long" -- "${cur}"))
                    return 0
                    ;;
                --template)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scan-tips)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rotation)
                    COMPREPLY=($(compgen -W "sort weighted round-robin uniform" -- "${cur}"))
                    return 0
                    ;;
                --cap)
                    COMPREPLY=($(compgen -W "total daily" -- "${cur}"))
                    return 0
                    ;;
                --channel)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --expires)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --group)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__wx__subcmd__help)
            opts="create list info qr edit delete help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__wx__subcmd__help__subcmd__create)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__wx__subcmd__help__subcmd__delete)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__wx__subcmd__help__subcmd__edit)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__wx__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__wx__subcmd__help__subcmd__info)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__wx__subcmd__help__subcmd__list)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__wx__subcmd__help__subcmd__qr)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__wx__subcmd__info)
            opts="-h -V --code --domain --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__wx__subcmd__list)
            opts="-q -h -V --page --limit --all --query --json --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --page)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --query)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -q)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --json)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        linkapi__subcmd__wx__subcmd__qr)
            opts="-o -h -V --code --domain --output --format --size --host --profile --no-input --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --domain)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "png svg" -- "${cur}"))
                    return 0
                    ;;
                --size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --profile)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _linkapi -o nosort -o bashdefault -o default linkapi
else
    complete -F _linkapi -o bashdefault -o default linkapi
fi
