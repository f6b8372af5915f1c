/// PEM fixtures generated once with the `openssl` 3.0 command line tool.
/// These are throwaway test keys, not secrets.
enum Fixtures {
    /// P-256 key in SEC 1 form (`openssl ecparam -name prime256v1 -genkey -noout`).
    static let ecTraditional = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIISZpYeACaSoGcZ2tVRYY4rknj7sYfBtE7ugBfhdIrGXoAoGCCqGSM49
        AwEHoUQDQgAEBJOMAfV1asXFGjtOdmC7NJmczbBe8fo9C/iVMTrbHrao7rmifBQ8
        ivjyTan4UKdeRENjmiBQ23jbt6BJpQyKRg==
        -----END EC PRIVATE KEY-----
        """

    /// Public half of `ecTraditional` (`openssl ec -pubout`).
    static let ecTraditionalPublic = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEBJOMAfV1asXFGjtOdmC7NJmczbBe
        8fo9C/iVMTrbHrao7rmifBQ8ivjyTan4UKdeRENjmiBQ23jbt6BJpQyKRg==
        -----END PUBLIC KEY-----
        """

    /// RSA 2048 key in PKCS#1 form (`openssl genrsa -traditional 2048`).
    static let rsaTraditional = """
        -----BEGIN RSA PRIVATE KEY-----
        MIIEowIBAAKCAQEA1XjNNvcWYd8r3a7owO6gjDFa6QSrNt54Q1tuo96D/4JK49hp
        lc6ny/8WUBCbAyKglp+SNBuUOhvl3iV6+S707ebACJ276wgSBdF+/C7PvCTeEV+3
        PiZfoC8QrM8aHcjViMCJLMwdabFnYciI9s9Q4cA+zRbFa41wTQi2Ysr4pVYJgwfv
        FClYAT+NiaoR82sHsPSq9S/U9QhzcqgSVA2xxMpvkt9MRbPLbuRUJUozGp2E3J+D
        F+lhKGotJzocb29fdIyqxktRGf3STlo4OM6cTVNYiIpZbPG9fnPYLzG8VOdNp8Kk
        ucer1oefJAVjgdoTxPr+vA7W3rC1do0AKp6PjwIDAQABAoIBADoMqxVm1KXRt86F
        OVL5sRvecf/KnrqBfcenTetu34s0RaQ23eN4emW9XLZyBY0xNeUvyGS2GTVCD9y8
        aXfofn9RD+hn6EmN/MSrRvJR0nixt9eWpTBX5AodslWjzdDKo9KXtNXDPb5XmSrc
        iu4+yxpQmmNP7WiFYkP4egxccIgY4ZZaLSnn3CsSuIRPrYv+DkwC5rRy7W+jHstq
        d/b8edeeXxak+sJubaUvEeMKOgQx+AerDpjO+IGO9BtwvhmlFMUDeifjSPl+2FBX
        WCYDDYFdleFuWhoLKFK3Sox0QqpkEFIeI3Pc2ut2t4sX+bi4PGz/ZWFxon+QoBdr
        vmJEr20CgYEA9jvUrd67HBcGBKK57bRw8OSbUzW719Susqk03dNFWa1gdWXUZL3W
        AEEBUUHKvJciHciALeeRGPIUerfEQNvI3K7CmJho+LZr634bMgYWXgX9R2h+8l6c
        OQDubpSHxPMi5OANvIqe5iq66feI8nbH0EiZ/Is5CXrckJQwE09OTwMCgYEA3fBR
        osINn5XOHyRJabJd6YUTaZVxEwvCDlHYkjRXgxc7OXWTdqs1PM1cOf9FNqC6jb8P
        jKNvAniqCWwUZJErgAyVAz3uK1vdqePlEMtMYPLvbYLmHITq+gfzrAQEZbx/lcoI
        ydiUN0FRzbCXLUhD9MOb1WlEPR2RvbsZeoy1gYUCgYEApwR8RRdP6UTAo0JRRSfg
        d7VImg9Xg5VSjgLxxgj5AFP2morgnxiY4IE3SIuM3ZDR5kvKjdiFdds2AutFJg0u
        WGn9uo2enhz2ZLyb67lvUIVVgCsj+HguFQhJsh3zXabho0dKafnIwCx5rhtl+7iP
        3fpw4Hj6zjBVDYhGd8KSRksCgYAc6eQYyiMwOToDQJz30i7970JaLQfwLUX4y5zl
        X0BPacVjdPfjK+bhpvdu7ty7gzEKqmuCLQCXV9T/KT924prCMeFv7K+Mook8St5a
        08F9l+itYbJM4Nwj+sk6DcPs5SPSBeIjOb4FfNMFcw4e7h08VAeHRBGJzMJh73Ag
        URiMaQKBgB+U2JVNc+CfVzhbAQ8GGcVG1pRQEi1wtbGIS+aT/kYWRgymgLII/Jf+
        gDqT25OQhPguYFSPubIZoN0yxW7JpkZ3qtGV1YX7lxWwK+auU3TzILoqPFnVRalK
        u5zLLsumhC9JpJ3Upeis5u6Mvtw+bC12ZtmHMRCH5d6UkjUNohJq
        -----END RSA PRIVATE KEY-----
        """

    /// Public half of `rsaTraditional` (`openssl rsa -pubout`).
    static let rsaTraditionalPublic = """
        -----BEGIN PUBLIC KEY-----
        MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA1XjNNvcWYd8r3a7owO6g
        jDFa6QSrNt54Q1tuo96D/4JK49hplc6ny/8WUBCbAyKglp+SNBuUOhvl3iV6+S70
        7ebACJ276wgSBdF+/C7PvCTeEV+3PiZfoC8QrM8aHcjViMCJLMwdabFnYciI9s9Q
        4cA+zRbFa41wTQi2Ysr4pVYJgwfvFClYAT+NiaoR82sHsPSq9S/U9QhzcqgSVA2x
        xMpvkt9MRbPLbuRUJUozGp2E3J+DF+lhKGotJzocb29fdIyqxktRGf3STlo4OM6c
        TVNYiIpZbPG9fnPYLzG8VOdNp8Kkucer1oefJAVjgdoTxPr+vA7W3rC1do0AKp6P
        jwIDAQAB
        -----END PUBLIC KEY-----
        """

    /// P-384 key, PKCS#8: an unsupported curve.
    static let p384 = """
        -----BEGIN PRIVATE KEY-----
        MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDACqtuFPQpDTdW/6x2j
        Luiyx/HscbOzPA8yyoqwQxUfx5PS12Tz1ANLvJcHoR9MLY6hZANiAATiFLdb4ivB
        2XV3yVMDQ7rxD6/lP5nPAWFB65rZv0xnlDhbAAODgtYWflw5fydz8uZFqvZG1jQ2
        X55zVqTXiVtY1/ac51N2rNi1RI7sT653ltxx5yjtoxz1u5wOdFXQqWI=
        -----END PRIVATE KEY-----
        """

    /// RSA 1024 key, PKCS#8: too small for RS256.
    static let rsa1024 = """
        -----BEGIN PRIVATE KEY-----
        MIICdwIBADANBgkqhkiG9w0BAQEFAASCAmEwggJdAgEAAoGBAL4IeabXNZ7ncNb8
        9+bv0GrgjgfPmjaxau9i4l2rmU3NeCxffkAyM1NME75uAPh+ogcSBWVo8oudtMGQ
        2IMAgg2hJsVGlUmiskhOJPtjzr9Ig3MskXE3cI/ezmPEpIxZFoVNAKo71znIfSHI
        pKfHEXgWBwffg6GqonjWMLcTmRDzAgMBAAECgYEAoc4hlxfDhkvWXpgClNY5Beex
        x6DS1CL4xF/UEqHb5M1At7ePjiWwYgpy/UA4/10DpTWI9rIHYy2jDPXCBLlYAb0t
        h1GvEOlz8ibLQyfK6uzdGW2RBgkrA3Ghtcucjs7spCmYp/eV3obgX3yStQ7nRbR0
        Sm1tzg3s6z541JhDtNECQQD1RMjp6J2oww7pHyWw2YVrEBGfhQPAtfob9KTjZUqb
        q6jgBuRGq+3TyOVqoIDw4BEsb/TvQt/HQvRS4SLGTQYdAkEAxlkBZyHwRAMLbqHL
        9Y+iQzkWy/h90ozoVfr41YwGS6fKCYxjKoiNzbbNoFDnnuRV/Dv+9Lq8dSer4LS0
        XVWGTwJAGnZ8cvhdIltBXZe1uloN0hpevGZenElGHgQMUliYbylbRCiaMqHUPDh9
        wD5nCxYx5CiENdhySo6Hy/Vsiha/ZQJAc4uyF4Rb1SL46+/xQxHzcrm1IAmYMqnH
        Rx83Ch/SIwyR09ImisaV5PrS+stmwtc9h/zjX2nRE2aS6Aoc8Co8XQJBANn9YldP
        +iBdBP+bRcYAqdn//swS/DdnS0Fb/MIFoXHxcV6KXhc/fAw8u8MhwJ3TE6aNN6le
        51r1n8GZZfDFfuY=
        -----END PRIVATE KEY-----
        """

    /// Ed25519 key in encrypted PKCS#8 (passphrase "secret").
    static let encryptedEd25519 = """
        -----BEGIN ENCRYPTED PRIVATE KEY-----
        MIGbMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAh6ZVWnxwuKrQICCAAw
        DAYIKoZIhvcNAgkFADAdBglghkgBZQMEASoEEJPQLv7d2e7IMCdYnivwzRoEQHq9
        Xvy2RMOSMgHqINK2dHDIVd1IT6zTvhGuAy6s/Y2DMOcDGYSICXOzpYv3L0cnf55A
        X5c17GhhZ1c5TMWi+yI=
        -----END ENCRYPTED PRIVATE KEY-----
        """

    /// X25519 key: not a signing key.
    static let x25519 = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VuBCIEIACi9Vib/MO3IcoIyQEGY2qeK3UgbaXdVEyVJShEOIpr
        -----END PRIVATE KEY-----
        """
}
