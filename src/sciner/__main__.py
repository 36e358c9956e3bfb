from sciner.cli import main

main()
