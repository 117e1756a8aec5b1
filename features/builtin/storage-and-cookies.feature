@builtin
Feature: Built-in steps: storage and cookies

  Scenario: Local and session storage
    Given I open "/environment.html"
    When I set the local storage item "theme" to "dark"
    And I set the session storage item "step" to "2"
    And I click "#refresh"
    Then I expect the text of "#theme" to equal "dark"
    And I expect the text of "#step" to equal "2"
    And I expect the local storage item "theme" to equal "dark"
    And I expect the session storage item "step" not to equal "1"
    When I remember the local storage item "theme" as "savedTheme"
    Then I expect "$savedTheme" to equal "dark"
    When I remove the local storage item "theme"
    Then I expect the local storage item "theme" to equal "null"
    When I clear the session storage
    Then I expect the session storage item "step" to equal "null"
    When I set the local storage item "a" to "1"
    And I clear the local storage
    Then I expect the local storage item "a" to equal "null"

  Scenario: Saving and loading the storage state (a logged-in session)
    Given I open "/login"
    When I fill "User" with "demo"
    And I fill "Password" with "secret"
    And I click "Log in"
    Then I expect the cookie "demo_session" to exist
    When I save the storage state to "state/logged-in.json"
    And I clear the cookies
    Then I expect the cookie "demo_session" not to exist
    Given I load the storage state from "state/logged-in.json"
    When I open "/welcome"
    Then I expect the page to contain the text "Welcome, demo!"

  Scenario: Cookies
    Given I open "/environment.html"
    When I set the cookie "consent" to "yes"
    And I set the cookies:
      | flavour | chocolate |
      | size    | large     |
    And I click "#refresh"
    Then I expect the text of "#cookies" to contain "consent=yes"
    And I expect the cookie "consent" to equal "yes"
    And I expect the cookie "flavour" not to equal "vanilla"
    And I expect the cookie "size" to exist
    When I remember the cookie "flavour" as "flavour"
    Then I expect "$flavour" to equal "chocolate"
    When I delete the cookie "consent"
    Then I expect the cookie "consent" not to exist
    And I expect the cookie "size" to exist
